import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { whoAmI } from '../../api/endpoints';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useSession } from '../../auth/session';

// Sign-in checks the token with GET /v1/tokens/self before keeping it.
export default function SignInPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const from = (location.state as { from?: string } | null)?.from ?? '/fleet';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = token.trim();
    if (trimmed === '') return setError(new Error('Paste the token you were given (it starts with fct_).'));
    if (trimmed.length > 512 || /\s/.test(trimmed)) return setError(new Error('That does not look like a token.'));
    setBusy(true);
    setError(null);
    try {
      const who = await whoAmI(trimmed);
      signIn(trimmed, who);
      navigate(from.startsWith('/signin') ? '/fleet' : from, { replace: true });
    } catch (cause) {
      setError(cause);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="signin">
      <h1>Sign in to fleetcap</h1>
      <form onSubmit={submit}>
        <label htmlFor="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      <p>The token is kept in this browser tab only and is never put in the address.</p>
      {error !== null && <ErrorMessage error={error} what="your session" />}
    </main>
  );
}
