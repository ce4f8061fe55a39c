// A test app listening on a real loopback port, for browser tests.
import { createTestApp, type TestAppOptions } from "./app.ts";

export async function startTestServer(options: TestAppOptions = {}) {
  const t = await createTestApp(options);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { ...t, baseUrl: `http://127.0.0.1:${port}` };
}
