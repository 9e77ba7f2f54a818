// The policy history in a planner's words. The API says who applied a
// version as "token:<token id>" and which version it replaced as a number (0:
// none). A planner may not list tokens (that is for admins: their role and
// description are in `fleetcapctl token list`), so the page says what the
// id is, and recognises the planner's own token.

const tokenPrefix = 'token:';

export interface AppliedBy {
  text: string;
  // The longer reading, for a tooltip.
  detail: string;
}

export function appliedByText(appliedBy: string | undefined, ownTokenId: string): AppliedBy {
  const actor = appliedBy ?? '';
  if (!actor.startsWith(tokenPrefix)) {
    return actor === ''
      ? { text: 'unknown', detail: 'The server did not record who applied this version.' }
      : { text: actor, detail: `Recorded by the server as “${actor}”.` };
  }
  const id = actor.slice(tokenPrefix.length);
  if (ownTokenId !== '' && id === ownTokenId) {
    return { text: `you (API token ${id})`, detail: 'Applied with the token you are signed in with.' };
  }
  return {
    text: `API token ${id}`,
    detail: `Applied with the API token whose id is ${id}. An admin sees its role and description with “fleetcapctl token list”.`,
  };
}

// What applying a version replaced: the version active before it.
export function replacedText(baseVersion: number | undefined): string {
  return baseVersion === undefined || baseVersion === 0 ? 'nothing (the first version)' : `version ${baseVersion}`;
}
