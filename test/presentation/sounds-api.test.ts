import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MAX_SOUND_BYTES } from '../../src/domain/sound-file.js';
import { BUILTIN_SOUNDS_DIR } from '../../src/presentation/sound-library.js';
import { createTempHome, useBroker } from '../support/broker-process.js';
import { httpRequest } from '../support/http-request.js';
import { createStandInPlayers } from '../support/stand-in-player.js';

const players = createStandInPlayers(['aplay', 'ffplay']);
const home = createTempHome();
home.env['PATH'] = players.folder;
const soundsFolder = join(home.home, '.local', 'share', 'notify', 'sounds');
const ping = readFileSync(join(BUILTIN_SOUNDS_DIR, 'ping.wav'));
/** An ID3v2 header followed by one MPEG-1 layer III frame header: enough for the content check. */
const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64])]);
const folderContents = () => (existsSync(soundsFolder) ? readdirSync(soundsFolder).sort() : []);

describe('/v1/sounds', () => {
  const broker = useBroker({ home });
  after(() => players.cleanup());

  const upload = (name: string, body: Buffer) =>
    httpRequest({
      port: broker.port,
      method: 'PUT',
      path: `/v1/sounds/${name}`,
      headers: {
        host: `127.0.0.1:${broker.port}`,
        authorization: `Bearer ${broker.token}`,
        'content-type': 'application/octet-stream',
        'content-length': String(body.length),
      },
      body,
    });

  it('lists the four built-in tones', async () => {
    const response = await broker.request('GET', '/v1/sounds');
    assert.equal(response.status, 200);
    assert.deepEqual(
      ((await response.json()) as { name: string; kind: string; format: string }[]).map(
        (sound) => `${sound.name}/${sound.kind}/${sound.format}`,
      ),
      ['chime/builtin/wav', 'ping/builtin/wav', 'alert/builtin/wav', 'knock/builtin/wav'],
    );
  });

  it('imports a WAV (201) and an MP3 by content, copies them into the data folder and lists them', async () => {
    const wav = await upload('door-bell', ping);
    assert.equal(wav.status, 201);
    assert.deepEqual(JSON.parse(wav.body), {
      name: 'door-bell',
      kind: 'imported',
      format: 'wav',
      bytes: ping.length,
    });
    const mp3Answer = await upload('song_2', mp3);
    assert.equal(mp3Answer.status, 201);
    assert.equal(JSON.parse(mp3Answer.body).format, 'mp3');
    assert.deepEqual(folderContents(), ['door-bell.wav', 'song_2.mp3']);
    assert.ok(readFileSync(join(soundsFolder, 'door-bell.wav')).equals(ping));
    const list = (await (await broker.request('GET', '/v1/sounds')).json()) as { name: string }[];
    assert.deepEqual(
      list.map((sound) => sound.name),
      ['chime', 'ping', 'alert', 'knock', 'door-bell', 'song_2'],
    );
  });

  it('replaces an imported sound of the same name (200), also across formats', async () => {
    const response = await upload('song_2', ping);
    assert.equal(response.status, 200);
    assert.deepEqual(folderContents(), ['door-bell.wav', 'song_2.wav']);
  });

  const REFUSALS: [what: string, name: string, body: Buffer, error: string][] = [
    [
      'a file that is not audio',
      'notes',
      Buffer.from('#!/bin/sh\necho hi\n'),
      'the sound file is neither WAV (RIFF/WAVE) nor MP3 (ID3 tag or MPEG frame); convert it to .wav or .mp3 first',
    ],
    ['an empty file', 'empty', Buffer.alloc(0), 'the sound file is empty'],
    [
      'the name of a built-in tone',
      'chime',
      ping,
      '"chime" is a built-in tone; choose another name for the imported sound',
    ],
    [
      'a name that could leave the folder',
      '..%2F..%2Fevil',
      ping,
      'sound name "../../evil" is not allowed; use 1-64 lower-case letters, digits, "-" or "_", starting with a letter or digit (not "none")',
    ],
    [
      'the word none',
      'none',
      ping,
      'sound name "none" is not allowed; use 1-64 lower-case letters, digits, "-" or "_", starting with a letter or digit (not "none")',
    ],
  ];
  for (const [what, name, body, error] of REFUSALS) {
    it(`refuses ${what} with 400 and writes nothing`, async () => {
      const before = folderContents();
      const response = await upload(name, body);
      assert.equal(response.status, 400);
      assert.deepEqual(JSON.parse(response.body), { error });
      assert.deepEqual(folderContents(), before);
    });
  }

  it('refuses a file declared over 10 MB with 413 before reading it, and writes nothing', async () => {
    const before = folderContents();
    const response = await httpRequest({
      port: broker.port,
      method: 'PUT',
      path: '/v1/sounds/huge',
      headers: {
        host: `127.0.0.1:${broker.port}`,
        authorization: `Bearer ${broker.token}`,
        'content-length': String(MAX_SOUND_BYTES + 1),
      },
    });
    assert.equal(response.status, 413);
    assert.deepEqual(folderContents(), before);
  });

  it('accepts a file of exactly 10 MB', async () => {
    const limit = Buffer.alloc(MAX_SOUND_BYTES);
    ping.copy(limit);
    const response = await upload('long-one', limit);
    assert.equal(response.status, 201);
    assert.equal(JSON.parse(response.body).bytes, MAX_SOUND_BYTES);
    assert.equal((await broker.request('DELETE', '/v1/sounds/long-one')).status, 200);
  });

  it('previews a sound through the first player on PATH, with the file as argument', async () => {
    const response = await broker.request('POST', '/v1/sounds/door-bell/preview');
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { name: 'door-bell', player: 'aplay' });
    const calls = await players.waitForCalls(1);
    assert.deepEqual(calls.at(-1), ['aplay', '-q', join(soundsFolder, 'door-bell.wav')]);
    const missing = await broker.request('POST', '/v1/sounds/nothing-here/preview');
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: 'sound "nothing-here" not found' });
  });

  it('keeps a sound a type uses (409), removes it once unused, and never removes a built-in tone', async () => {
    assert.equal((await broker.request('PUT', '/v1/types/deploy', { sound: 'door-bell' })).status, 201);
    const inUse = await broker.request('DELETE', '/v1/sounds/door-bell');
    assert.equal(inUse.status, 409);
    assert.deepEqual(await inUse.json(), {
      error: 'sound "door-bell" is in use by types.deploy; choose another sound there first',
    });
    await broker.request('PUT', '/v1/types/deploy', { sound: 'knock' });
    const removed = await broker.request('DELETE', '/v1/sounds/door-bell');
    assert.equal(removed.status, 200);
    assert.deepEqual(await removed.json(), {
      name: 'door-bell',
      kind: 'imported',
      format: 'wav',
      bytes: ping.length,
    });
    assert.deepEqual(folderContents(), ['song_2.wav']);
    const builtin = await broker.request('DELETE', '/v1/sounds/knock');
    assert.equal(builtin.status, 400);
    assert.deepEqual(await builtin.json(), { error: '"knock" is a built-in tone and cannot be removed' });
  });
});
