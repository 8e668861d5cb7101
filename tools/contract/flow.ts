// The contract as a TypeScript developer meets it: types generated from
// openapi.yaml by openapi-typescript at its default settings, requests
// through openapi-fetch, and the flow every integration starts with —
// create a scan, poll it, read its report, schedule the homepage with
// nothing but its URL. Type-checking this file is half the test; running
// it against a live server (directly and through a Prism validation
// proxy) is the other half.
import createClient from "openapi-fetch";
import type { components, paths } from "./out/schema.js";

type Scan = components["schemas"]["Scan"];
type ApiError = components["schemas"]["Error"];
// Success responses declare their headers, so a typed client can name them.
type CreatedHeaders = paths["/scans"]["post"]["responses"][201]["headers"];
type RateLimitGroup = NonNullable<CreatedHeaders["X-RateLimit-Group"]>;

function env(name: string): string {
  const v = process.env[name];
  if (!v) {
    throw new Error(`${name} is not set`);
  }
  return v;
}

const baseUrl = env("GEOSCAN_API_URL");
const target = env("GEOSCAN_SCAN_URL");
const client = createClient<paths>({ baseUrl, headers: { "X-API-Key": env("GEOSCAN_API_KEY") } });

function fail(step: string, status: number, error: ApiError | undefined): never {
  throw new Error(`${step}: HTTP ${status} ${error ? `${error.error.code}: ${error.error.message}` : "(no error body)"}`);
}

async function main(): Promise<void> {
  // A request the API must refuse, with the documented envelope.
  const refused = await client.POST("/scans", { body: { url: "http://insecure.example/" } });
  if (refused.response.status !== 422 || refused.error?.error.code !== "invalid_url") {
    throw new Error(`an http:// URL was not refused with 422 invalid_url: ${refused.response.status}`);
  }

  const created = await client.POST("/scans", { body: { url: target } });
  if (!created.data) {
    fail("create scan", created.response.status, created.error);
  }
  const requestId = created.response.headers.get("X-Request-Id");
  const group = created.response.headers.get("X-RateLimit-Group") as RateLimitGroup | null;
  if (!requestId || group !== "api_write") {
    throw new Error(`create scan: missing X-Request-Id or X-RateLimit-Group (${requestId}, ${group})`);
  }
  const typedId: CreatedHeaders["X-Request-Id"] = requestId;
  const id = created.data.id;
  console.log(`created scan ${id} (${created.data.status}, request ${typedId})`);

  let scan: Scan = created.data;
  const deadline = Date.now() + 90_000;
  let delay = 200;
  while (scan.status !== "completed" && scan.status !== "failed") {
    if (Date.now() > deadline) {
      throw new Error(`scan ${id} did not finish in 90 s (still ${scan.status})`);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 2_000);
    const got = await client.GET("/scans/{scan_id}", { params: { path: { scan_id: id } } });
    if (!got.data) {
      fail("get scan", got.response.status, got.error);
    }
    scan = got.data;
  }
  if (scan.status !== "completed" || scan.overall_score === null) {
    throw new Error(`scan ${id} ${scan.status}: ${scan.error_code} ${scan.error_message}`);
  }
  console.log(`scan ${id} completed: ${scan.overall_score} (${scan.overall_grade})`);

  const report = await client.GET("/scans/{scan_id}/report", {
    params: { path: { scan_id: id }, query: { audience: "engineering" } },
  });
  if (!report.data) {
    fail("get report", report.response.status, report.error);
  }
  if (report.data.overall_score !== scan.overall_score || report.data.checks.length === 0) {
    throw new Error(`the report disagrees with the scan: ${report.data.overall_score} vs ${scan.overall_score}`);
  }
  const rings = report.data.rings;
  console.log(`report: search ${rings.search.score}, visibility ${rings.visibility.score}, trust ${rings.trust.score}, ${report.data.checks.length} checks`);

  // Only the URL: frequency and notify_email take their server defaults.
  const home = new URL("/", target).toString();
  const schedule = await client.POST("/schedules", { body: { url: home } });
  if (!schedule.data) {
    fail("create schedule", schedule.response.status, schedule.error);
  }
  if (schedule.data.frequency !== "quarterly" || schedule.data.notify_email !== true) {
    throw new Error(`the schedule did not get the defaults: ${schedule.data.frequency}, ${schedule.data.notify_email}`);
  }
  console.log(`schedule ${schedule.data.id} (${schedule.response.status}): ${schedule.data.frequency}, next run ${schedule.data.next_run_at}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
