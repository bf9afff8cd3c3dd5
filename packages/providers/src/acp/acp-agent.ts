import * as acp from "@agentclientprotocol/sdk";
import type { AgentAccess } from "@oar/engine";
import { CANCELLED } from "./acp-permissions";
import {
  type AcpAgentProcess,
  type AcpClientHandlers,
  exitDescription,
  startAcpProcess,
} from "./acp-process";
import { offerOf, type SessionOffer } from "./acp-session-settings";
import { NO_USAGE, type UsageTotals } from "./acp-usage";

/** The turn an agent's updates and permission requests go to while it runs. */
export interface TurnSink {
  onUpdate(update: acp.SessionUpdate): void;
  requestPermission(request: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse>;
}

/** A started and initialized ACP agent, with the session it has open (if any). */
export interface AcpAgent {
  readonly process: AcpAgentProcess;
  readonly init: acp.InitializeResponse;
  /** The session open in this process; `null` until one is opened. */
  sessionId: string | null;
  offer: SessionOffer;
  /** The totals last counted toward usage, as this process reports them. */
  counted: UsageTotals;
  /** The session's running cost in USD as the agent last reported it (usage_update). */
  costUsd: number;
  /** Set while a turn runs. */
  sink: TurnSink | undefined;
}

/** Starts the agent and asks `initialize`; the process is killed when that fails. */
export async function startAcpAgent(options: {
  readonly argv: readonly [string, ...string[]];
  readonly cwd: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly killGraceMs: number;
}): Promise<AcpAgent> {
  let agent: AcpAgent | undefined;
  const handlers: AcpClientHandlers = {
    onUpdate(notification) {
      if (agent === undefined || notification.sessionId !== agent.sessionId) {
        // Before the session is open (a session/load replays the history): nothing is a turn's.
        return;
      }
      keepOfferCurrent(agent, notification.update);
      agent.sink?.onUpdate(notification.update);
    },
    requestPermission(request) {
      const sink = agent?.sessionId === request.sessionId ? agent.sink : undefined;
      return sink === undefined ? Promise.resolve(CANCELLED) : sink.requestPermission(request);
    },
  };
  const process = startAcpProcess({ ...options, handlers });
  try {
    const init = await process.connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      // The relay offers no file system or terminal of its own: the agent uses its own tools.
      clientCapabilities: {},
      clientInfo: { name: "oar-relay", version: "1" },
    });
    agent = {
      process,
      init,
      sessionId: null,
      offer: offerOf({}),
      counted: NO_USAGE,
      costUsd: 0,
      sink: undefined,
    };
    return agent;
  } catch (error) {
    const gone = process.exit() !== undefined || process.connection.signal.aborted;
    await process.kill();
    if (gone) {
      throw new AcpStartFailure(exitDescription(options.argv[0], process.exit(), process.stderrTail()));
    }
    throw error;
  }
}

/** The agent ended (or never ran) before it answered `initialize`: the message says how. */
export class AcpStartFailure extends Error {}

function keepOfferCurrent(agent: AcpAgent, update: acp.SessionUpdate): void {
  if (update.sessionUpdate === "current_mode_update" && agent.offer.modes !== null) {
    agent.offer = { ...agent.offer, modes: { ...agent.offer.modes, currentModeId: update.currentModeId } };
  } else if (update.sessionUpdate === "config_option_update") {
    agent.offer = { ...agent.offer, configOptions: update.configOptions };
  }
}

/** The relay as an MCP server of the session, so the agent sees relay_tool (DESIGN §5). */
export function relayMcpServers(agent: AcpAgent, access: AgentAccess | null): acp.McpServer[] {
  if (access === null || agent.init.agentCapabilities?.mcpCapabilities?.http !== true) {
    return [];
  }
  return [
    {
      type: "http",
      name: "relay",
      url: `${access.url}/mcp`,
      headers: [{ name: "Authorization", value: `Bearer ${access.token}` }],
    },
  ];
}

export type OpenedSession =
  | { readonly kind: "loaded" }
  | { readonly kind: "new"; readonly sessionId: string; readonly lost?: string };

/**
 * Opens the relay session's conversation in this process: `session/load` of the kept id when the
 * agent can, else (or when that fails) a new one; `lost` then says why the earlier messages are gone.
 */
export async function openAcpSession(
  agent: AcpAgent,
  request: { readonly keptId: string | null; readonly cwd: string; readonly mcpServers: acp.McpServer[] },
): Promise<OpenedSession> {
  const { keptId, cwd, mcpServers } = request;
  let lost: string | undefined;
  if (keptId !== null) {
    if (agent.init.agentCapabilities?.loadSession === true) {
      try {
        // Set first: the load's own updates (its end) then keep the offer current.
        agent.sessionId = keptId;
        const loaded = await agent.process.connection.agent.request(acp.methods.agent.session.load, {
          sessionId: keptId,
          cwd,
          mcpServers,
        });
        agent.offer = offerOf(loaded ?? {});
        return { kind: "loaded" };
      } catch (error) {
        agent.sessionId = null;
        if (agent.process.exit() !== undefined) {
          throw error;
        }
        lost = `it could not reopen it: ${errorText(error)}`;
      }
    } else {
      lost = "it cannot reopen a conversation in a new process (it does not offer session/load)";
    }
  }
  const created = await agent.process.connection.agent.request(acp.methods.agent.session.new, {
    cwd,
    mcpServers,
  });
  agent.sessionId = created.sessionId;
  agent.offer = offerOf(created);
  return { kind: "new", sessionId: created.sessionId, ...(lost === undefined ? {} : { lost }) };
}

/** A JSON-RPC error's message with its data, or any error's message. */
export function errorText(error: unknown): string {
  if (error instanceof acp.RequestError) {
    const data = error.data;
    const detail =
      data === undefined || data === null ? "" : typeof data === "string" ? data : JSON.stringify(data);
    return detail === "" || error.message.includes(detail) ? error.message : `${error.message} (${detail})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** ACP's `auth_required` error (-32000): the agent is not signed in. */
export function isAuthRequired(error: unknown): boolean {
  return error instanceof acp.RequestError && error.code === -32000;
}
