import { after, before } from 'node:test';
import { startTestServer, TestClient } from '../helpers/server.js';

export interface TunnelSite {
  s: Awaited<ReturnType<typeof startTestServer>>;
  admin: TestClient;
}

/**
 * For a test file: a server set up as behind the README's tunnel (TRUST_PROXY=true: one proxy
 * in front, which appends the address it saw) with a signed-in admin; started before the
 * file's tests, closed after them.
 */
export function tunnelSite(): TunnelSite {
  const site = {} as TunnelSite;
  before(async () => {
    site.s = await startTestServer({ TRUST_PROXY: 'true' });
    site.admin = new TestClient(site.s.url);
    await site.admin.login();
  });
  after(() => site.s.close());
  return site;
}
