import { err, ok, type Result } from "@oar/core";
import { readModels, shown } from "../command/definition";
import { apiKeyProblem, monthlyCapProblem } from "../shared/billing-settings";
import { MAX_PRICE_PER_MTOK, type ModelPrice, type PriceTable } from "./api-chat-prices";
import type { ApiChatVendor } from "./api-chat-vendors";

/** A `settings.providers.grok` (or `.deepseek`) entry that has no problems, defaults filled in. */
export interface ApiChatEntry {
  readonly apiKey: string;
  /** Without a trailing slash; the client posts to `${baseUrl}/chat/completions`. */
  readonly baseUrl: string;
  /** The first is the default. */
  readonly models: readonly string[];
  readonly monthlyCapUsd?: number;
  /** The owner's prices, over the relay's own. */
  readonly prices: PriceTable;
}

export const API_CHAT_ENTRY_FIELDS = ["apiKey", "baseUrl", "models", "monthlyCapUsd", "prices"] as const;

const PRICE_FIELDS = ["inputPerMTok", "outputPerMTok"] as const;

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Reads a vendor's settings entry, or every problem it has, each naming its field
 * (`providers.grok.apiKey: …`). The key is never part of a problem.
 */
export function parseApiChatEntry(vendor: ApiChatVendor, entry: unknown): Result<ApiChatEntry, string[]> {
  const at = `providers.${vendor.id}`;
  if (!isRecord(entry)) {
    return err([`${at}: must be an object like {"apiKey": "…"}`]);
  }
  const { apiKey, baseUrl, models, monthlyCapUsd, prices, ...rest } = entry;
  const problems: string[] = [];
  const keyProblem = apiKeyProblem(`${at}.apiKey`, apiKey, vendor.keyName);
  if (keyProblem !== undefined) {
    problems.push(keyProblem);
  }
  const url =
    baseUrl === undefined ? ok(vendor.defaultBaseUrl) : readBaseUrl(vendor, baseUrl, `${at}.baseUrl`);
  const modelList = models === undefined ? ok([...vendor.defaultModels]) : readModels(models, `${at}.models`);
  const capProblem = monthlyCapProblem(`${at}.monthlyCapUsd`, monthlyCapUsd);
  if (capProblem !== undefined) {
    problems.push(capProblem);
  }
  // Prices are checked against the models only when those are good: else each price would be refused too.
  const priceTable =
    prices === undefined ? ok({}) : readPrices(prices, `${at}.prices`, modelList.ok ? modelList.value : null);
  for (const read of [url, modelList, priceTable]) {
    if (!read.ok) {
      problems.push(...read.error);
    }
  }
  for (const field of Object.keys(rest)) {
    problems.push(`${at}.${field}: unknown setting; ${vendor.id} takes ${API_CHAT_ENTRY_FIELDS.join(", ")}`);
  }
  if (problems.length > 0 || typeof apiKey !== "string" || !url.ok || !modelList.ok || !priceTable.ok) {
    return err(problems);
  }
  return ok({
    apiKey,
    baseUrl: url.value,
    models: modelList.value,
    ...(typeof monthlyCapUsd === "number" ? { monthlyCapUsd } : {}),
    prices: priceTable.value,
  });
}

function readBaseUrl(vendor: ApiChatVendor, value: unknown, field: string): Result<string, string[]> {
  const problem = `${field}: must be an http or https URL without a query or fragment, like "${vendor.defaultBaseUrl}" (got ${shown(value)})`;
  if (typeof value !== "string" || !URL.canParse(value)) {
    return err([problem]);
  }
  const url = new URL(value);
  if (
    !["http:", "https:"].includes(url.protocol) ||
    url.search !== "" ||
    url.hash !== "" ||
    /\s/.test(value)
  ) {
    return err([problem]);
  }
  return ok(value.replace(/\/+$/, ""));
}

function readPrices(
  value: unknown,
  field: string,
  models: readonly string[] | null,
): Result<PriceTable, string[]> {
  if (!isRecord(value)) {
    return err([
      `${field}: must be an object of model ids to {"inputPerMTok": n, "outputPerMTok": n} (US dollars per million tokens)`,
    ]);
  }
  const problems: string[] = [];
  const table: Record<string, ModelPrice> = {};
  for (const [model, price] of Object.entries(value)) {
    const at = `${field}.${model}`;
    if (models !== null && !models.includes(model)) {
      problems.push(`${at}: not one of the provider's models (${models.join(", ")})`);
      continue;
    }
    const read = readPrice(price, at);
    if (read.ok) {
      table[model] = read.value;
    } else {
      problems.push(...read.error);
    }
  }
  return problems.length > 0 ? err(problems) : ok(table);
}

function readPrice(value: unknown, at: string): Result<ModelPrice, string[]> {
  if (!isRecord(value)) {
    return err([`${at}: must be an object like {"inputPerMTok": 3, "outputPerMTok": 15}`]);
  }
  const problems: string[] = [];
  for (const name of PRICE_FIELDS) {
    const amount = value[name];
    if (
      !(typeof amount === "number" && Number.isFinite(amount) && amount >= 0 && amount <= MAX_PRICE_PER_MTOK)
    ) {
      problems.push(
        `${at}.${name}: must be a number of US dollars per million tokens from 0 to ${MAX_PRICE_PER_MTOK} (got ${shown(amount)})`,
      );
    }
  }
  for (const name of Object.keys(value).filter((key) => !(PRICE_FIELDS as readonly string[]).includes(key))) {
    problems.push(`${at}.${name}: unknown field; a price takes ${PRICE_FIELDS.join(" and ")}`);
  }
  return problems.length > 0
    ? err(problems)
    : ok({ inputPerMTok: value.inputPerMTok as number, outputPerMTok: value.outputPerMTok as number });
}
