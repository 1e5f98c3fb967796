// WebSocket handler (seed 004, §2.1): /ws?sessionId=…, the `connection` frame first, `message`
// frames handed to the orchestrator and its frames broadcast to every connection of the session,
// pings every 30 s with silent connections dropped. Frames are those of docs/host-websocket.md.
import { randomUUID } from 'node:crypto';

const WELCOME = "Hello! I'm an AI assistant that can help answer questions and use tools to get information.";

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ sessions: import('./sessions.mjs').SessionManager,
 *   orchestrator: import('./orchestrator.mjs').ConversationOrchestrator, heartbeatMs?: number }} deps
 */
export function setupWebSocket(app, { sessions, orchestrator, heartbeatMs = 30000 }) {
  /** @type {Map<import('ws').WebSocket, { sessionId: string, clientId: string, connectedAt: number, lastActiveAt: number, userAgent?: string }>} */
  const connections = new Map();

  function sendMessage(socket, message) {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }

  function broadcastMessage(session, message) {
    const text = JSON.stringify(message);
    for (const socket of session.connections) if (socket.readyState === socket.OPEN) socket.send(text);
  }

  const sendError = (socket, message) => sendMessage(socket, { type: 'error', payload: { message } });

  async function runTurn(session, text) {
    try {
      for await (const frame of orchestrator.handleInput(session, text)) broadcastMessage(session, frame);
    } catch (error) {
      app.log.error({ component: 'WebSocket', action: 'turn_crashed', sessionId: session.id, err: error });
    }
  }

  function handleClientMessage(socket, session, raw) {
    let frame;
    try {
      frame = JSON.parse(raw.toString());
    } catch {
      return sendError(socket, 'a frame must be a JSON object {"type", "payload"}');
    }
    const payload = frame?.payload ?? {};
    switch (frame?.type) {
      case 'message':
        if (typeof payload.text !== 'string' || payload.text === '') return sendError(socket, 'message: payload.text must be a non-empty string');
        if (session.turnRunning) return sendError(socket, 'an answer is being written; stop it or wait');
        session.lastActiveAt = Date.now();
        runTurn(session, payload.text);
        return undefined;
      case 'stop':
        session.abort?.abort();
        return undefined;
      case 'clear':
        if (session.turnRunning) return sendError(socket, 'stop the answer being written before a new chat');
        session.history = [];
        return broadcastMessage(session, { type: 'history', payload: { messages: [] } });
      default:
        return sendError(socket, `unknown frame type "${frame?.type}"`);
    }
  }

  function handleConnection(socket, request) {
    const existing = sessions.getSession(request.query?.sessionId);
    const session = existing ?? sessions.createSession();
    const meta = {
      sessionId: session.id, clientId: randomUUID(), connectedAt: Date.now(), lastActiveAt: Date.now(),
      userAgent: request.headers['user-agent'],
    };
    connections.set(socket, meta);
    socket.isAlive = true;
    sessions.addConnectionToSession(session, socket);
    request.log.info({ component: 'WebSocket', action: existing ? 'reconnected' : 'connected', sessionId: session.id, clientId: meta.clientId });
    sendMessage(socket, {
      type: 'connection',
      payload: { state: existing ? 'reconnected' : 'connected', message: existing ? 'Welcome back.' : WELCOME, sessionId: session.id },
    });
    socket.on('pong', () => { socket.isAlive = true; meta.lastActiveAt = Date.now(); });
    socket.on('message', (raw) => {
      socket.isAlive = true;
      meta.lastActiveAt = Date.now();
      handleClientMessage(socket, session, raw);
    });
    socket.on('close', () => {
      connections.delete(socket);
      sessions.removeConnectionFromSession(session, socket);
      request.log.info({ component: 'WebSocket', action: 'disconnected', sessionId: session.id, clientId: meta.clientId });
    });
  }

  /** Pings every connection; one that did not answer the last ping is dropped. */
  function cleanupStaleConnections() {
    for (const socket of connections.keys()) {
      if (!socket.isAlive) {
        socket.terminate();
        continue;
      }
      socket.isAlive = false;
      socket.ping();
    }
    sessions.cleanupInactiveSessions(24 * 60 * 60 * 1000);
  }

  const heartbeat = setInterval(cleanupStaleConnections, heartbeatMs);
  app.addHook('onClose', async () => clearInterval(heartbeat));
  app.get('/ws', { websocket: true }, handleConnection);

  return { getActiveConnections: (sessionId) => [...connections.values()].filter((c) => !sessionId || c.sessionId === sessionId) };
}
