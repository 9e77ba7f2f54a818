// Saved views (docs/dashboard.md, "Saved views"): the page on screen with its
// URL state (time range, grouping, filters, sort) saved under a name, to
// open again later; each token keeps its own (ViewService).
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router-dom';
import { listViews, removeView, saveView } from '../api/endpoints';
import { ErrorMessage } from './ErrorMessage';

// The pages a view can be of: "/" and lowercase letters, as the API keeps them.
const savablePath = /^\/[a-z]{1,32}$/;

export function SavedViews() {
  const location = useLocation();
  const client = useQueryClient();
  const views = useQuery({ queryKey: ['views'], queryFn: listViews });
  const [name, setName] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: ['views'] });
  const save = useMutation({ mutationFn: saveView, onSuccess: refresh });
  const remove = useMutation({ mutationFn: removeView, onSuccess: refresh });
  const savable = savablePath.test(location.pathname);

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    save.mutate({ name: trimmed, path: location.pathname, query: location.search.replace(/^\?/, '') });
    setName('');
  };

  const saved = views.data?.views ?? [];
  return (
    <details className="saved-views" data-testid="saved-views">
      <summary>Saved views{saved.length > 0 ? ` (${saved.length})` : ''}</summary>
      {savable && (
        <form onSubmit={onSave} className="controls">
          <label>
            View name
            <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit" disabled={!name.trim() || save.isPending}>
            Save this view
          </button>
        </form>
      )}
      {save.isError && <ErrorMessage error={save.error} what="saving the view" />}
      {remove.isError && <ErrorMessage error={remove.error} what="removing the view" />}
      {views.isError && <ErrorMessage error={views.error} what="your saved views" />}
      {saved.length > 0 ? (
        <ul>
          {saved.map((view) => (
            <li key={view.name}>
              <Link to={`${view.path}${view.query ? `?${view.query}` : ''}`}>{view.name}</Link>{' '}
              <button type="button" className="link" aria-label={`Remove ${view.name}`} onClick={() => remove.mutate(view.name ?? '')}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        views.isSuccess && <p>No saved views yet: save what is on screen under a name to open it again.</p>
      )}
    </details>
  );
}
