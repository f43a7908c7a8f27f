// esbuild bundles the stylesheet main.tsx imports into its own hashed .css file.
declare module '*.css';
