import { describe, expect, it } from "vitest";
import { MASK, maskCredentials } from "../../src/tasks/credential-mask";

// Made up for the test, each in the shape its issuer uses.
const SECRETS: readonly (readonly [name: string, line: string, shown: string])[] = [
  [
    "a bearer token in a curl line",
    'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl" https://api.example.com',
    `curl -H "Authorization: Bearer ${MASK}" https://api.example.com`,
  ],
  ["basic auth", "Authorization: Basic dXNlcjpodW50ZXIyaHVudGVyMg==", `Authorization: Basic ${MASK}`],
  [
    "a password in a database URL",
    "connecting to postgres://deploy:s3cr3t-Pa55@db.internal:5432/app",
    `connecting to postgres://deploy:${MASK}@db.internal:5432/app`,
  ],
  [
    "a token in a git remote",
    "fatal: unable to access 'https://x-access-token:ghs_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r.git/'",
    `fatal: unable to access 'https://x-access-token:${MASK}@github.com/o/r.git/'`,
  ],
  [
    "an env line ending in _TOKEN",
    "GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ0123",
    `GITHUB_TOKEN=${MASK}`,
  ],
  [
    "an export of an API key",
    "export OPENAI_API_KEY='sk-live-0123456789abcdef'",
    `export OPENAI_API_KEY='${MASK}'`,
  ],
  [
    "a _SECRET in yaml",
    "  AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    `  AWS_SECRET_ACCESS_KEY: ${MASK}`,
  ],
  [
    "a password option",
    "mysql --user=app --password=hunter2 app_db",
    `mysql --user=app --password=${MASK} app_db`,
  ],
  [
    "a password in a query string",
    "GET /login?user=a&password=hunter2&next=/",
    `GET /login?user=a&password=${MASK}&next=/`,
  ],
  ["a password variable", "DB_PASSWORD=hunter2 npm run migrate", `DB_PASSWORD=${MASK} npm run migrate`],
  [
    "an Anthropic key alone",
    "using key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 for the run",
    `using key ${MASK} for the run`,
  ],
  ["an OpenAI project key", "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx12", MASK],
  ["a GitHub token alone", "token ghp_0123456789abcdefghijABCDEFGHIJ0123 expired", `token ${MASK} expired`],
  ["a fine-grained GitHub token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", MASK],
  ["a GitLab token", "glpat-AbCdEfGhIjKlMnOpQrSt", MASK],
  ["a Slack bot token", "posting with xoxb-1234567890-0987654321-AbCdEf", `posting with ${MASK}`],
  ["an AWS access key id", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE", `aws_access_key_id = ${MASK}`],
  ["a Google API key", "key=AIzaSyA-0123456789abcdefghijklmnopqrstu", `key=${MASK}`],
  [
    "an npm token",
    "//registry.npmjs.org/:_authToken=npm_0123456789abcdefghijABCDEFGHIJ012345",
    `//registry.npmjs.org/:_authToken=${MASK}`,
  ],
  ["this relay's agent token", "OAR_AGENT_TOKEN oar_agt_Zx9Qw8Er7Ty6Ui5Op4As3Df2", `OAR_AGENT_TOKEN ${MASK}`],
];

const LOOK_ALIKES: readonly string[] = [
  "the bearer of this message",
  "MONKEY=banana",
  "git clone https://github.com/org/repo.git",
  "fetching https://user@example.com/path",
  "http://localhost:3000/v1/tool",
  "task-sk-1 finished",
  "✓ src/keys.test.ts > sorts by key (3 ms)",
  "Tests  412 passed | 2 failed",
  "const token = readToken();",
  "ask-ant-colony",
  "AKIA is a prefix",
  "password: (hidden)",
];

describe("credentials are masked before an agent reads task output (R-RTO-04, DESIGN §7)", () => {
  it.each(SECRETS)("%s", (_name, line, shown) => {
    expect(maskCredentials(line)).toBe(shown);
  });

  it.each(LOOK_ALIKES)("a look-alike stays: %s", (line) => {
    expect(maskCredentials(line)).toBe(line);
  });

  it("masks every credential of a line, and a masked line again changes nothing", () => {
    const line = "A_TOKEN=abc123 B_KEY=def456 postgres://u:p4ss@h/db";
    const masked = maskCredentials(line);
    expect(masked).toBe(`A_TOKEN=${MASK} B_KEY=${MASK} postgres://u:${MASK}@h/db`);
    expect(maskCredentials(masked)).toBe(masked);
  });
});
