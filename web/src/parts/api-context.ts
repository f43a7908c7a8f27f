import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from '../api.js';

export const ApiContext = createContext<Api | undefined>(undefined);

/** The API the page was started with (main.tsx provides it). */
export function useApi(): Api {
  const api = useContext(ApiContext);
  if (api === undefined) throw new Error('useApi outside ApiContext.Provider');
  return api;
}
