// Two local users on one machine: what mcpkit keeps for one must not reach the other. The test
// runs as root and makes throwaway users: "mcpkit-victim" runs mcpkit, "mcpkit-other" (and root,
// standing in for an attacker who got there first) try to read or redirect what it keeps.
//   - review: a runtime directory another user made in /tmp first (0777, with a discovery file
//     naming their socket) is refused, and the review goes nowhere; so is a planted symlink.
//   - host: the state directory is 0700 and the chat database (with -wal, -shm) 0600, also when an
//     older mcpkit left them 0755/0644; without HOME it is never a shared /tmp folder.
//   - devconsole: /mcp needs the secret kept 0600 in the user's runtime directory; the other user
//     can neither read the file nor call /mcp without it, nor get it from the user's bridge by
//     answering on a port as the daemon would; the user's own bridge gets in.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { eventually, freePort, mcpkit as builtMcpkit } from './support.mjs';

const VICTIM = 'mcpkit-victim';
const OTHER = 'mcpkit-other';
const root = process.getuid() === 0;
const children = [];

function ensureUser(name) {
  if (spawnSync('id', ['-u', name]).status !== 0) {
    const made = spawnSync('useradd', ['--create-home', '--shell', '/bin/sh', name], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
  }
  const uid = Number(spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout.trim());
  const home = `/home/${name}`;
  // Open homes: only mcpkit's own modes may keep the other user out.
  fs.chmodSync(home, 0o755);
  return { name, uid, home };
}

/** Runs `args` as `user` with exactly `env` (plus PATH); resolves to { code, stdout, stderr }. */
function runAs(user, args, env = {}, { timeout = 30000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn('runuser', ['-u', user.name, '--', 'env', '-i', 'PATH=/usr/bin:/bin',
      ...Object.entries(env).map(([key, value]) => `${key}=${value}`), ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

/** Starts `args` as `user` in the background; the process is stopped after the tests. */
function startAs(user, args, env = {}) {
  const child = spawn('runuser', ['-u', user.name, '--', 'env', '-i', 'PATH=/usr/bin:/bin',
    ...Object.entries(env).map(([key, value]) => `${key}=${value}`), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.output = '';
  child.stdout.on('data', (chunk) => { child.output += chunk; });
  child.stderr.on('data', (chunk) => { child.output += chunk; });
  child.exited = new Promise((resolve) => child.on('exit', resolve));
  children.push(child);
  return child;
}

const mode = (file) => fs.lstatSync(file).mode & 0o777;

// The build may sit in a directory only root can enter (a checkout made by mktemp): the users get
// copies in a folder they can reach.
let mcpkit = builtMcpkit;
let node = process.execPath;
let reachable;
function copyForUsers() {
  reachable = fs.mkdtempSync('/tmp/mcpkit-users-bin-');
  fs.chmodSync(reachable, 0o755);
  mcpkit = path.join(reachable, 'mcpkit');
  node = path.join(reachable, 'node');
  fs.copyFileSync(builtMcpkit, mcpkit);
  fs.copyFileSync(process.execPath, node);
  fs.chmodSync(mcpkit, 0o755);
  fs.chmodSync(node, 0o755);
}

let victim;
let other;
before(() => {
  if (!root) return;
  victim = ensureUser(VICTIM);
  other = ensureUser(OTHER);
  copyForUsers();
});
after(async () => {
  for (const child of children) {
    // runuser's child is the mcpkit process: end the whole group of the user's processes.
    spawnSync('pkill', ['-TERM', '-u', VICTIM]);
    spawnSync('pkill', ['-TERM', '-u', OTHER]);
    await Promise.race([child.exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
  }
  if (victim) fs.rmSync(`/tmp/mcpkit-${victim.uid}`, { recursive: true, force: true });
  if (reachable) fs.rmSync(reachable, { recursive: true, force: true });
});

describe('two local users', { skip: root ? false : 'needs root to make throwaway users' }, () => {
  test('review: a runtime directory another user made first is refused, and the review goes nowhere', async () => {
    const squatted = `/tmp/mcpkit-${victim.uid}`;
    fs.rmSync(squatted, { recursive: true, force: true });
    // The attacker (root here, any other user in life) makes the directory first, open to all,
    // and announces a panel that is really their own socket.
    const trap = path.join('/tmp', `attacker-${process.pid}.sock`);
    fs.rmSync(trap, { force: true });
    let stolen = '';
    const attacker = net.createServer((socket) => socket.on('data', (chunk) => { stolen += chunk; }));
    await new Promise((resolve) => attacker.listen(trap, resolve));
    fs.chmodSync(trap, 0o777);
    fs.mkdirSync(squatted, { mode: 0o777 });
    fs.chmodSync(squatted, 0o777);
    fs.writeFileSync(path.join(squatted, 'review-panel.json'), JSON.stringify({ socket: trap, pid: process.pid }));
    fs.chmodSync(path.join(squatted, 'review-panel.json'), 0o666);
    try {
      const review = JSON.stringify({ content: '# Confidential\nThe password is hunter2.' });
      const answer = await runAs(victim, [mcpkit, 'client', '--timeout', '20', 'call', 'present_review', review, '--', mcpkit, 'review'],
        { HOME: victim.home });
      assert.match(answer.stdout + answer.stderr, new RegExp(`${squatted} belongs to user id 0, not to you`));
      assert.equal(stolen, '', 'nothing reached the planted socket');

      // A symlink planted in its place is refused too.
      fs.rmSync(squatted, { recursive: true, force: true });
      fs.mkdirSync(`${squatted}-target`, { mode: 0o777 });
      fs.symlinkSync(`${squatted}-target`, squatted);
      const linked = await runAs(victim, [mcpkit, 'client', '--timeout', '20', 'call', 'present_review', review, '--', mcpkit, 'review'],
        { HOME: victim.home });
      assert.match(linked.stdout + linked.stderr, /is a symbolic link/);
      assert.equal(stolen, '');
    } finally {
      attacker.close();
      fs.rmSync(squatted, { recursive: true, force: true });
      fs.rmSync(`${squatted}-target`, { recursive: true, force: true });
      fs.rmSync(trap, { force: true });
    }
    // Left alone, the user's own directory is made 0700.
    const panel = startAs(victim, [mcpkit, 'review-panel', '--http', '127.0.0.1:0'], { HOME: victim.home });
    assert.ok(await eventually(() => fs.existsSync(path.join(squatted, 'review-panel.json')), 10000), panel.output);
    assert.equal(fs.lstatSync(squatted).uid, victim.uid);
    assert.equal(mode(squatted), 0o700);
    assert.equal(mode(path.join(squatted, 'review-panel.json')), 0o600);
  });

  test('host: the state directory is 0700 and the chat database 0600, also when an older mcpkit left them open', async () => {
    const state = path.join(victim.home, '.local/state/mcpkit');
    fs.rmSync(state, { recursive: true, force: true });
    // What an older mcpkit left: a 0755 directory and a 0644 database.
    spawnSync('runuser', ['-u', VICTIM, '--', 'sh', '-c', `umask 022; mkdir -p ${state} && chmod 755 ${state} && touch ${state}/host.db && chmod 644 ${state}/host.db`]);
    assert.equal(mode(state), 0o755);
    const port = await freePort();
    const host = startAs(victim, [mcpkit, 'host', '--http', `127.0.0.1:${port}`], { HOME: victim.home, MCPKIT_HOST_TOKEN: 'private-chat' });
    assert.ok(await eventually(async () => (await fetch(`http://127.0.0.1:${port}/health?token=private-chat`).catch(() => null))?.ok, 10000), host.output);
    assert.equal(mode(state), 0o700);
    for (const file of ['host.db', 'host.db-wal', 'host.db-shm'])
      if (fs.existsSync(path.join(state, file))) assert.equal(mode(path.join(state, file)), 0o600, file);
    assert.ok(fs.existsSync(path.join(state, 'host.db-wal')), 'the WAL exists, and was checked');
    const peek = await runAs(other, ['cat', path.join(state, 'host.db')]);
    assert.notEqual(peek.code, 0);
    assert.match(peek.stderr, /Permission denied/);
  });

  test('host: without HOME or XDG_STATE_HOME, the state goes to the home in the password database, never /tmp', async () => {
    const state = path.join(victim.home, '.local/state/mcpkit');
    fs.rmSync(state, { recursive: true, force: true });
    const before = fs.readdirSync('/tmp').filter((name) => name.startsWith('mcpkit')).sort();
    const port = await freePort();
    const host = startAs(victim, [mcpkit, 'host', '--http', `127.0.0.1:${port}`], { MCPKIT_HOST_TOKEN: 'x' });
    assert.ok(await eventually(() => fs.existsSync(path.join(state, 'host.db')), 10000), host.output);
    assert.equal(mode(state), 0o700);
    assert.deepEqual(fs.readdirSync('/tmp').filter((name) => name.startsWith('mcpkit')).sort(), before);
  });

  test("devconsole: /mcp needs the user's secret, which the other user can neither read nor do without", async () => {
    const port = await freePort();
    const runtime = `/tmp/mcpkit-${victim.uid}`;
    fs.rmSync(runtime, { recursive: true, force: true });
    const daemon = startAs(victim, [mcpkit, 'devconsole', '--port', String(port)], { HOME: victim.home });
    const secretFile = path.join(runtime, `devconsole-${port}.token`);
    assert.ok(await eventually(() => fs.existsSync(secretFile), 10000), daemon.output);
    assert.equal(mode(secretFile), 0o600);
    assert.equal(mode(runtime), 0o700);
    const peek = await runAs(other, ['cat', secretFile]);
    assert.match(peek.stderr, /Permission denied/);
    const stranger = await runAs(other, [mcpkit, 'client', '--no-oauth', '--url', `http://127.0.0.1:${port}/mcp`, 'tools'], { HOME: other.home });
    assert.notEqual(stranger.code, 0);
    assert.match(stranger.stderr, /401|needs Authorization: Bearer/);
    // Another user's program on a port the bridge is pointed at, answering /health as the daemon
    // would, is not handed the secret.
    const fakePort = await freePort();
    const fake = startAs(other, [node, '-e', `require('http').createServer((request, response) => {
      if (request.headers.authorization) console.log('STOLEN ' + request.headers.authorization);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ name: 'mcpkit-devconsole', status: 'ok' }));
    }).listen(${fakePort}, '127.0.0.1', () => console.log('fake listening'));`], { HOME: other.home });
    assert.ok(await eventually(() => fake.output.includes('fake listening'), 10000), fake.output);
    const fooled = await runAs(victim, [mcpkit, 'client', '--timeout', '10', 'tools', '--', mcpkit, 'devconsole', '--stdio',
      '--port', String(fakePort)], { HOME: victim.home, MCPKIT_DEVCONSOLE_TOKEN: 'the-victims-secret' });
    assert.notEqual(fooled.code, 0);
    assert.match(fooled.stderr, new RegExp(`port ${fakePort} is held by another user's process \\(uid ${other.uid}\\)`));
    assert.doesNotMatch(fake.output, /STOLEN/);
    // The user's own assistant, through the bridge, reads the secret and gets in.
    const own = await runAs(victim, [mcpkit, 'client', 'tools', '--', mcpkit, 'devconsole', '--stdio', '--port', String(port)], { HOME: victim.home });
    assert.equal(own.code, 0, own.stderr);
    assert.match(own.stdout, /"observe"/);
  });
});
