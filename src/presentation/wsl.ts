/**
 * Inside WSL (issue 33): the kernel release names Microsoft ("5.15.167.4-microsoft-standard-WSL2",
 * "4.4.0-19041-Microsoft" on WSL 1) and WSL_INTEROP says Windows programs can be started from here,
 * powershell.exe among them. Without interop, WSL is a Linux like any other.
 */
export function isWslWithInterop(kernelRelease: string, env: NodeJS.ProcessEnv): boolean {
  return /microsoft/i.test(kernelRelease) && Boolean(env['WSL_INTEROP']);
}
