import { describe, expect, it } from 'vitest';
import { feedEtag, feedKey, feedToken, isCurrentToken, matchesEtag, newNonce, isWellFormedToken, subtaskLink, tokenHash } from './calendar.rules';

const key = feedKey('a-server-secret-that-is-long-enough-for-tests');

describe('feed tokens', () => {
  it('are 43 URL-safe characters, the same for the same nonce, different for a new one, a user or a key', () => {
    const nonce = newNonce();
    const token = feedToken(key, 7, nonce);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(feedToken(key, 7, nonce)).toBe(token);
    expect(feedToken(key, 7, newNonce())).not.toBe(token);
    expect(feedToken(key, 8, nonce)).not.toBe(token);
    expect(feedToken(feedKey('another-server-secret-that-is-long-enough'), 7, nonce)).not.toBe(token);
  });

  it('are kept as a hash that is not the token', () => {
    const token = feedToken(key, 7, newNonce());
    expect(tokenHash(token)).not.toContain(token);
    expect(tokenHash(token)).toBe(tokenHash(token));
  });

  it('are current only as the server derives them now', () => {
    const nonce = newNonce();
    expect(isCurrentToken(key, 7, nonce, feedToken(key, 7, nonce))).toBe(true);
    expect(isCurrentToken(key, 7, nonce, feedToken(key, 8, nonce))).toBe(false);
    expect(isCurrentToken(key, 7, nonce, 'short')).toBe(false);
  });

  it('are told from what cannot be one without a database read', () => {
    const token = feedToken(key, 1, newNonce());
    expect(isWellFormedToken(token)).toBe(true);
    for (const text of [`${token}.ics`, `x${token}`, token.slice(1), `${token.slice(1)}/`, `${token.slice(1)}=`]) expect(isWellFormedToken(text), text).toBe(false);
  });
});

describe('matchesEtag', () => {
  const owner = { userId: 1, language: 'en' };
  const etag = feedEtag(owner, [{ id: 9, sequence: 0 }], 'https://siteboard.example');
  it('matches the tag, strong or weak, alone or in a list, and *', () => {
    expect(matchesEtag(etag, etag)).toBe(true);
    expect(matchesEtag(etag.replace(/^W\//, ''), etag)).toBe(true);
    expect(matchesEtag(`"other", ${etag}`, etag)).toBe(true);
    expect(matchesEtag('*', etag)).toBe(true);
  });
  it('does not match another tag or none', () => {
    // Any change of what the text is made of is another tag: a row's revision, the owner, the address.
    expect(matchesEtag(feedEtag(owner, [{ id: 9, sequence: 1 }], 'https://siteboard.example'), etag)).toBe(false);
    expect(matchesEtag(feedEtag({ ...owner, language: 'de' }, [{ id: 9, sequence: 0 }], 'https://siteboard.example'), etag)).toBe(false);
    expect(matchesEtag(feedEtag(owner, [{ id: 9, sequence: 0 }], 'http://siteboard.example'), etag)).toBe(false);
    expect(matchesEtag(undefined, etag)).toBe(false);
    expect(matchesEtag('', etag)).toBe(false);
  });
});

describe('subtaskLink', () => {
  it("points at the owner's My Tasks with the subtask, or an admin's dashboard", () => {
    expect(subtaskLink('https://x.example', 'manager', 5)).toBe('https://x.example/manager/my-tasks?subtask=5');
    expect(subtaskLink('https://x.example', 'team_member', 5)).toBe('https://x.example/team-member/my-tasks?subtask=5');
    expect(subtaskLink('https://x.example', 'admin', 5)).toBe('https://x.example/admin');
  });
});
