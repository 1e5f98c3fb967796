// Session management (seed 004, §2.5): sessions in memory, each with its history and the
// connections (tabs) attached to it.
import { randomUUID } from 'node:crypto';

/**
 * @typedef {{ id: string, role: 'user' | 'assistant' | 'system' | 'tool', content?: string, data?: any,
 *   toolCalls?: { id: string, name: string, arguments: object }[], toolCallId?: string, toolName?: string,
 *   createdAt: number }} ChatMessage
 * @typedef {{ id: string, createdAt: number, lastActiveAt: number, connections: Set<import('ws').WebSocket>,
 *   history: ChatMessage[], turnRunning: boolean, abort?: AbortController }} Session
 */

export class SessionManager {
  /** @type {Map<string, Session>} */
  #sessions = new Map();

  createSession() {
    const now = Date.now();
    const session = { id: randomUUID(), createdAt: now, lastActiveAt: now, connections: new Set(), history: [], turnRunning: false };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** @returns {Session | null} */
  getSession(sessionId) {
    return (sessionId && this.#sessions.get(sessionId)) || null;
  }

  addConnectionToSession(session, socket) {
    session.connections.add(socket);
    session.lastActiveAt = Date.now();
  }

  removeConnectionFromSession(session, socket) {
    session.connections.delete(socket);
    session.lastActiveAt = Date.now();
  }

  getAllSessions() {
    return [...this.#sessions.values()];
  }

  /** Forgets sessions with no connection that have been idle for `maxAgeMs`. */
  cleanupInactiveSessions(maxAgeMs) {
    const cutoff = Date.now() - maxAgeMs;
    for (const [id, session] of this.#sessions) {
      if (session.connections.size === 0 && !session.turnRunning && session.lastActiveAt < cutoff) this.#sessions.delete(id);
    }
  }
}
