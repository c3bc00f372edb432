import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { LoginUser } from '@switchyard/shared';
import { clearStoredUser, getStoredUser, setStoredUser } from '../lib/storage';

interface AuthState {
  user: LoginUser | null;
  /** Stores the signed-in user (after login, or after a profile change). */
  setUser(user: LoginUser): void;
  /** Forgets the user locally (the caller has already called the logout endpoint). */
  clearUser(): void;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUserState] = useState<LoginUser | null>(() => getStoredUser());
  const setUser = useCallback((u: LoginUser) => {
    setStoredUser(u);
    setUserState(u);
  }, []);
  const clearUser = useCallback(() => {
    clearStoredUser();
    setUserState(null);
  }, []);
  const value = useMemo(() => ({ user, setUser, clearUser }), [user, setUser, clearUser]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
