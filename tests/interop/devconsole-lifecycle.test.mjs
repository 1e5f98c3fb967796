// devconsole: the command lifecycle seen from the official TypeScript SDK client, with a scripted
// extension speaking the original 0.7 wire protocol (devconsole-support.mjs): sync by default,
// still_processing then command_result, background, queue overflow, an extension that goes away,
// cancellation, and level-triggered delivery to concurrent polls.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { eventually, sleep } from './support.mjs';
import { ScriptedExtension, call, connectClient, post, startDevConsole } from './devconsole-support.mjs';

const handlers = {
  execute: async (command) => {
    const script = command.params.script;
    const delay = /sleep\((\d+)\)/.exec(script);
    if (delay) await sleep(Number(delay[1]));
    if (script.includes('throw')) throw new Error('ReferenceError: nope is not defined');
    return { success: true, result: `ran: ${script}`, effective_tab_id: 42 };
  },
  dom_action: async (command) => ({ success: true, action: command.params.action, selector: command.params.selector }),
  cancel: async () => ({ success: true, cancelled: true }),
};

describe('devconsole command lifecycle', () => {
  let daemon;
  let client;
  let extension;
  before(async () => {
    daemon = await startDevConsole(['--tool-wait-ms', '1500', '--extension-timeout-ms', '1500', '--long-poll-ms', '700',
      '--connect-grace-ms', '300']);
    client = await connectClient(daemon.base);
    extension = new ScriptedExtension(daemon.base, { handlers }).start();
    assert.ok(await eventually(async () => (await (await fetch(daemon.base + '/health', { headers: daemon.auth })).json()).capture.extension_connected));
  });
  after(async () => {
    await extension?.stop();
    await client?.close();
    await daemon?.stop();
  });

  test('a call waits for its command by default and answers with the extension result', async () => {
    const answer = await call(client, 'interact', { what: 'execute_js', script: 'document.title' });
    assert.equal(answer.status, 'complete', JSON.stringify(answer));
    assert.equal(answer.final, true);
    assert.equal(answer.result.result, 'ran: document.title');
    assert.match(answer.correlation_id, /^exec_\d+_\d+$/);
    assert.match(answer.content[0].text, /^Command exec_\S+: complete\n/);
    const delivered = extension.received.find((command) => command.correlation_id === answer.correlation_id);
    assert.equal(delivered.type, 'execute');
    assert.equal(delivered.params.script, 'document.title');
  });

  test('a failing command is an error the caller reads', async () => {
    const answer = await call(client, 'interact', { what: 'execute_js', script: 'throw nope' });
    assert.equal(answer.isError, true);
    assert.equal(answer.status, 'error');
    assert.match(answer.message, /ReferenceError: nope is not defined/);
  });

  test('a slow command answers still_processing, and command_result fetches it later', async () => {
    const first = await call(client, 'interact', { what: 'execute_js', script: 'sleep(2500)' });
    assert.equal(first.status, 'still_processing', JSON.stringify(first));
    assert.equal(first.final, false);
    assert.match(first.message, /command_result/);
    const pending = await call(client, 'observe', { what: 'pending_commands' });
    assert.ok(pending.entries.some((entry) => entry.correlation_id === first.correlation_id));
    let later;
    assert.ok(await eventually(async () => {
      later = await call(client, 'observe', { what: 'command_result', correlation_id: first.correlation_id });
      return later.status === 'complete';
    }, 5000), JSON.stringify(later));
    assert.equal(later.result.result, 'ran: sleep(2500)');
  });

  test('background answers queued at once, whichever of background, sync:false, wait:false says so', async () => {
    for (const flag of [{ background: true }, { sync: false }, { wait: false }]) {
      const queued = await call(client, 'interact', { what: 'click', selector: '#go', ...flag });
      assert.equal(queued.status, 'queued', JSON.stringify(queued));
      let done;
      assert.ok(await eventually(async () => {
        done = await call(client, 'observe', { what: 'command_result', correlation_id: queued.correlation_id });
        return done.status === 'complete';
      }));
      assert.deepEqual(done.result, { success: true, action: 'click', selector: '#go' });
    }
  });

  test('unknown correlation ids are named in a clear error', async () => {
    const answer = await call(client, 'observe', { what: 'command_result', correlation_id: 'exec_1_2' });
    assert.equal(answer.isError, true);
    assert.equal(answer.error, 'unknown_correlation_id');
    const missing = await call(client, 'observe', { what: 'command_result' });
    assert.equal(missing.error, 'missing_correlation_id');
  });

  test('cancelling a call through MCP cancels its command and tells the extension', async () => {
    const controller = new AbortController();
    const pendingCall = call(client, 'interact', { what: 'execute_js', script: 'sleep(1200)' }, { signal: controller.signal });
    assert.ok(await eventually(() => extension.received.some((command) => command.params.script === 'sleep(1200)')));
    controller.abort();
    await assert.rejects(pendingCall);
    assert.ok(await eventually(() => extension.received.some((command) => command.type === 'cancel')),
      'the extension was asked to cancel');
    const cancel = extension.received.find((command) => command.type === 'cancel');
    const failed = await call(client, 'observe', { what: 'failed_commands' });
    const entry = failed.entries.find((item) => item.correlation_id === cancel.params.correlation_id);
    assert.equal(entry?.status, 'cancelled', JSON.stringify(failed.entries));
  });

  test('every parked poll is woken by a new command (several sync loops from one extension)', async () => {
    const body = { ext_session_id: extension.sessionId, settings: { tracked_tab_id: 42, tracking_enabled: true }, in_progress: [] };
    await sleep(300);  // let the scripted loop settle into a parked poll too
    const polls = [post(daemon.base, '/sync', body), post(daemon.base, '/sync', body)];
    await sleep(150);
    const queued = await call(client, 'interact', { what: 'focus', selector: '#name', background: true });
    const answers = await Promise.all(polls);
    for (const answer of answers)
      assert.ok(answer.body.commands.some((command) => command.correlation_id === queued.correlation_id),
        `each parked poll gets the command: ${answer.text}`);
  });
});

describe('devconsole queue overflow and a vanishing extension', () => {
  let daemon;
  let client;
  before(async () => {
    daemon = await startDevConsole(['--tool-wait-ms', '5000', '--extension-timeout-ms', '1500', '--long-poll-ms', '500',
      '--connect-grace-ms', '300', '--max-pending', '3']);
    client = await connectClient(daemon.base);
  });
  after(async () => {
    await client?.close();
    await daemon?.stop();
  });

  test('on overflow the oldest pending command expires and its waiting caller hears at once', async () => {
    const stuck = new ScriptedExtension(daemon.base, { handlers, execute: false }).start();
    assert.ok(await eventually(async () => (await (await fetch(daemon.base + '/health', { headers: daemon.auth })).json()).capture.extension_connected));
    const oldest = call(client, 'interact', { what: 'click', selector: '#a' });
    await eventually(async () => (await call(client, 'observe', { what: 'pending_commands' })).count === 1);
    const queued = [];
    for (let i = 0; i < 3; i++) queued.push(await call(client, 'interact', { what: 'click', selector: `#b${i}`, background: true }));
    const answer = await oldest;
    // Had it waited out its 5 s, it would say still_processing.
    assert.equal(answer.status, 'expired', JSON.stringify(answer));
    assert.equal(answer.error, 'queue_overflow');
    const pending = await call(client, 'observe', { what: 'pending_commands' });
    assert.deepEqual(pending.entries.map((entry) => entry.correlation_id).sort(),
      queued.map((item) => item.correlation_id).sort());
    const health = await (await fetch(daemon.base + '/health', { headers: daemon.auth })).json();
    assert.equal(health.commands.overflowed, 1);
    assert.equal(health.commands.queue_cap, 3);

    // The extension goes away: pending commands expire with extension_disconnected.
    await stuck.stop();
    let result;
    assert.ok(await eventually(async () => {
      result = await call(client, 'observe', { what: 'command_result', correlation_id: queued[0].correlation_id });
      return result.status === 'expired';
    }, 5000), JSON.stringify(result));
    assert.equal(result.error, 'extension_disconnected');
  });

  test('a caller waiting on a command is answered when the extension falls silent', async () => {
    const slow = new ScriptedExtension(daemon.base, {
      handlers: { execute: () => new Promise(() => {}) },  // never finishes
    }).start();
    assert.ok(await eventually(async () => (await (await fetch(daemon.base + '/health', { headers: daemon.auth })).json()).capture.extension_connected));
    const waiting = call(client, 'interact', { what: 'execute_js', script: 'forever()' });
    assert.ok(await eventually(() => slow.received.length > 0));
    await slow.stop();
    const answer = await waiting;
    assert.equal(answer.status, 'expired', JSON.stringify(answer));
    assert.equal(answer.error, 'extension_disconnected');
  });

  test('while disconnected a new command is refused at once and nothing is queued', async () => {
    const answer = await call(client, 'interact', { what: 'execute_js', script: '1' });
    assert.equal(answer.isError, true);
    assert.equal(answer.error, 'extension_disconnected');
    assert.match(answer.message, /Nothing was queued/);
    assert.equal((await call(client, 'observe', { what: 'pending_commands' })).count, 0);
  });

  test('an extension that comes back serves commands again', async () => {
    const back = new ScriptedExtension(daemon.base, { handlers }).start();
    const answer = await call(client, 'interact', { what: 'execute_js', script: 'again' });
    assert.equal(answer.status, 'complete', JSON.stringify(answer));
    await back.stop();
  });
});
