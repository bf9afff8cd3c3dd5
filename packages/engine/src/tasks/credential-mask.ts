/** What a masked credential reads as, wherever it stood (R-RTO-04, DESIGN §7). */
export const MASK = "[masked]";

/**
 * The credentials a task's output may print, each as the part to keep and the secret after it.
 * Only shapes that are credentials whatever the context: a word that merely looks like one
 * ("the bearer of", `MONKEY=banana`, a URL with a user and no password) stays.
 */
const PATTERNS: readonly RegExp[] = [
  // `Authorization: Bearer <token>`, `Bearer <token>` in a curl line.
  /(\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/g,
  /(\bBasic\s+)[A-Za-z0-9+/]{12,}={0,2}/g,
  // The password of a URL: scheme://user:password@host.
  /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(?=@)/gi,
  // NAME_TOKEN=…, NAME_KEY=…, NAME_SECRET=…, NAME_PASSWORD=… (env lines, `export`, CLI flags).
  /(\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*_(?:TOKEN|KEY|SECRET|PASSWORD|PASSWD|PWD)\s*[=:]\s*["']?)[^\s"']+/gi,
  /(\b(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY)\s*[=:]\s*["']?)[^\s"']+/g,
  // A password given as an option or a query parameter: --password=…, ?password=…, pass=….
  /((?:^|[\s?&;-])(?:password|passwd|pass|pwd)=)[^\s&;"']+/gi,
  // Provider keys recognisable by their prefix.
  /()\bsk-ant-[A-Za-z0-9_-]{16,}/g,
  /()\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}/g,
  /()\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}/g,
  /()\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /()\bglpat-[A-Za-z0-9_-]{20,}/g,
  /()\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /()\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /()\bAIza[A-Za-z0-9_-]{35}\b/g,
  /()\bnpm_[A-Za-z0-9]{36}\b/g,
  // This relay's own tokens (agent, owner, invite).
  /()\boar_[a-z]+_[A-Za-z0-9_-]{16,}/g,
];

/** The line with every credential it carries replaced by MASK, the words around it kept. */
export function maskCredentials(line: string): string {
  let masked = line;
  for (const pattern of PATTERNS) {
    masked = masked.replace(pattern, (_secret, kept: string) => `${kept}${MASK}`);
  }
  return masked;
}
