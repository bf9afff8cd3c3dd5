import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Figures, Spread } from "./figures";
import type { Check } from "./ledger";

/** Failures printed per check; the JSON keeps them all. */
const PRINTED_FAILURES = 25;

const ms = (value: number | null) => (value === null ? "—" : `${value.toFixed(0)} ms`);
const s = (value: number | null) => (value === null ? "—" : `${(value / 1000).toFixed(1)} s`);
const mb = (value: number | null) => (value === null ? "—" : `${value.toFixed(0)} MB`);
const rate = (value: number | null) =>
  value === null ? "—" : `${value >= 0 ? "+" : ""}${value.toFixed(1)} MB/h`;
const spreadText = (x: Spread) => `${ms(x.p50)} / ${ms(x.p99)} (${x.count})`;

export interface RunHeader {
  readonly seed: number;
  readonly processes: number;
  readonly loadMinutes: number;
  readonly quietSeconds: number;
  readonly separateHosts: boolean;
  readonly haproxy: string;
  readonly database: string;
  readonly calm: boolean;
  readonly loadAverage: readonly [number, number];
}

export function printReport(
  header: RunHeader,
  checks: readonly Check[],
  figures: Figures,
  logErrors: readonly { readonly member: string; readonly count: number; readonly line: string }[],
): void {
  const out = (line = "") => console.log(line);
  out();
  out(
    `# soak: ${header.processes} relays behind ${header.haproxy}, ${header.loadMinutes} min of load${header.calm ? " (calm: no faults)" : ""}, seed ${header.seed}, quiet ${header.quietSeconds} s`,
  );
  out(
    `(${header.separateHosts ? "each relay on a host of its own: mount and UTS namespaces" : "plain processes: one host"}; load average ${header.loadAverage[0].toFixed(1)} → ${header.loadAverage[1].toFixed(1)}; database ${header.database})`,
  );
  out();
  out("## Ledger");
  for (const check of checks) {
    const counts = Object.entries(check.counts)
      .map(([key, value]) => `${value} ${key}`)
      .join(", ");
    out(`${check.passed ? "ok  " : "FAIL"} ${check.title}${counts === "" ? "" : ` — ${counts}`}`);
    for (const failure of check.failures.slice(0, PRINTED_FAILURES)) {
      out(`       ✗ ${failure}`);
    }
    if (check.failures.length > PRINTED_FAILURES) {
      out(`       … ${check.failures.length - PRINTED_FAILURES} more in the JSON`);
    }
    for (const note of check.notes.slice(0, 10)) {
      out(`       · ${note}`);
    }
  }
  out();
  out("## Figures");
  const c = figures.calls;
  out(
    `calls: ${c.total} in the load, ${c.perSecond.toFixed(1)}/s; ${c.failed} failed (${Object.entries(
      c.failedByCode,
    )
      .sort((a, b) => b[1] - a[1])
      .map(([code, n]) => `${n} ${code}`)
      .join(", ")}); served by ${Object.entries(c.byMember)
      .map(([member, n]) => `${member} ${n}`)
      .join(", ")}`,
  );
  out(
    `send + wait p50 / p99 (count): away from faults ${spreadText(figures.sendWait.calm)}, with faults ${spreadText(figures.sendWait.faulted)}; ${figures.sendWait.gaveUp} given up`,
  );
  out(
    `faults: ${figures.faults.map((f) => `${f.kind} ${f.member} at ${f.atS.toFixed(0)} s (${s(f.ms)})`).join(", ") || "none"}`,
  );
  if (figures.kills.length > 0) {
    out();
    out("| kill | at | listening again | first call it served | its running turns | all ended after |");
    out("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (const kill of figures.kills) {
      out(
        `| ${kill.member} | ${kill.atS.toFixed(0)} s | ${s(kill.listeningMs)} | ${s(kill.firstServedMs)} | ${kill.turnsRunning}${kill.turnsStillOpen > 0 ? ` (${kill.turnsStillOpen} open)` : ""} | ${s(kill.turnsEndedMs)} |${kill.failure === null ? "" : ` ${kill.failure}`}`,
      );
    }
  }
  out();
  out("| process | lived | RSS first → last | RSS slope | heap slope | heap slope, 2nd half |");
  out("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const m of figures.memory) {
    out(
      `| ${m.member} pid ${m.pid} | ${m.livedS.toFixed(0)} s | ${mb(m.rssFirstMb)} → ${mb(m.rssLastMb)} | ${rate(m.rssMbPerHour)} | ${rate(m.heapMbPerHour)} | ${rate(m.heapLateMbPerHour)} |`,
    );
  }
  out(
    "(slopes under load, after a 2-minute warm-up, through the samples each process took right after a full collection it forced once a minute; —: under 5 minutes to fit; the 2nd half's: under 20 minutes under load)",
  );
  out();
  out("| table | rows start → end | size start → end |");
  out("| --- | ---: | ---: |");
  for (const t of figures.tables) {
    if (t.rows[0] === 0 && t.rows[1] === 0) {
      continue;
    }
    out(
      `| ${t.name} | ${t.rows[0]} → ${t.rows[1]} | ${(t.bytes[0] / 1024).toFixed(0)} → ${(t.bytes[1] / 1024).toFixed(0)} KB |`,
    );
  }
  out();
  out(
    logErrors.length === 0
      ? "relay logs: no error line (level error or fatal)"
      : `relay logs: ${logErrors.reduce((n, e) => n + e.count, 0)} error lines (level error or fatal; not a ledger check; a relay logs a bug at that level):`,
  );
  for (const error of logErrors.slice(0, 10)) {
    out(`  ${error.member} ${error.count} × ${error.line.slice(0, 200)}`);
  }
  out();
  const failed = checks.filter((check) => !check.passed);
  out(
    failed.length === 0
      ? "LEDGER CLEAN"
      : `LEDGER NOT CLEAN: ${failed.map((check) => `${check.name} (${check.failures.length})`).join(", ")}`,
  );
}

export async function writeLedger(
  file: string,
  content: { header: RunHeader; checks: readonly Check[]; figures: Figures; extra: Record<string, unknown> },
): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(content, null, 2)}\n`);
}
