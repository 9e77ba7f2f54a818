// The bearer token lives in sessionStorage only: gone when the tab closes,
// never in the URL (where it would leak into history, logs and shared links).
export const tokenStorageKey = 'fleetcap.token';

export function readToken(): string | null {
  try {
    return window.sessionStorage.getItem(tokenStorageKey);
  } catch {
    return null;
  }
}

export function writeToken(token: string): void {
  window.sessionStorage.setItem(tokenStorageKey, token);
}

export function clearToken(): void {
  window.sessionStorage.removeItem(tokenStorageKey);
}
