// Who is signed in: the token (sessionStorage) and what the server says it
// may see (GET /v1/tokens/self).
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { whoAmI } from '../api/endpoints';
import { clearToken, readToken, writeToken } from '../api/token';
import type { WhoAmIResponse } from '../api/types';
import { scopeOf, type Scope } from './scope';

export { scopeOf, type Scope } from './scope';

interface Session {
  token: string | null;
  scope: Scope | null;
  scopeError: unknown;
  signIn: (token: string, who: WhoAmIResponse) => void;
  signOut: () => void;
}

const SessionContext = createContext<Session | null>(null);

// The one definition of the whoami query: the session reads it, and a route
// that prefetches its data asks for it first (sharing the same request).
export function whoAmIQuery(token: string) {
  return { queryKey: ['whoami', token], queryFn: () => whoAmI(), staleTime: 5 * 60_000 };
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => readToken());
  const who = useQuery({ ...whoAmIQuery(token ?? ''), enabled: token !== null });

  const signIn = useCallback(
    (next: string, answer: WhoAmIResponse) => {
      writeToken(next);
      queryClient.clear();
      queryClient.setQueryData(['whoami', next], answer);
      setToken(next);
    },
    [queryClient],
  );
  const signOut = useCallback(() => {
    clearToken();
    queryClient.clear();
    setToken(null);
  }, [queryClient]);

  const value = useMemo<Session>(
    () => ({
      token,
      scope: who.data ? scopeOf(who.data) : null,
      scopeError: who.error,
      signIn,
      signOut,
    }),
    [token, who.data, who.error, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
