-- Saved views of the dashboard (docs/dashboard.md, "Saved views";
-- store/view_repository.h): a name a token gave to a page and its URL state
-- (time range, grouping, filters, sort), to open again. Each token keeps its
-- own: the owner is the token, and a token reads and removes only its own.
-- The URL state is kept as the page's query string, which the page reads
-- as it reads any URL (every value checked there), never interpreted here.
CREATE TABLE saved_views (
  owner    text NOT NULL CHECK (length(owner) BETWEEN 1 AND 128),
  name     text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  path     text NOT NULL CHECK (path ~ '^/[a-z]{1,32}$'),
  query    text NOT NULL CHECK (length(query) <= 1024),
  saved_at timestamptz NOT NULL,
  PRIMARY KEY (owner, name)
);
