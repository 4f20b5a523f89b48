// One OP_MSG (opcode 2013) with a body section of `doc`, as raw bytes: for
// the tests that drive `ttldb serve` over a bare socket (a client that never
// reads its replies, limits.test.mjs and hostile_attackers.mjs).
import { BSON } from 'mongodb';

export function opMsg(id, doc) {
  const body = BSON.serialize(doc);
  const header = Buffer.alloc(21);  // flags 0, section kind 0
  header.writeInt32LE(21 + body.length, 0);
  header.writeInt32LE(id, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(2013, 12);
  return Buffer.concat([header, body]);
}
