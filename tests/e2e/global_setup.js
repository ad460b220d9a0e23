// global_setup.js — starts the site's own server (scripts/serve.js) on a free port for the browser tests and
// hands its URL to them (process.env.PT2E_E2E_URL, read by fixtures.js); stops it when they are done.
import { startServer } from '../../scripts/serve.js';

export default async function globalSetup() {
  const server = await startServer({ port: 0 });
  process.env.PT2E_E2E_URL = server.url;
  return () => server.close();
}
