"""pymongo (Debian's python3-pymongo) against `ttldb serve` (issue 33).

Run by scripts/client_tests.sh with /usr/bin/python3 and TTLDB_BIN set:
CRUD, a TTL index and expiry by the monitor, watch() and resume_after,
bulk_write, and concurrent
upserts of one document from threads. Expected answers are MongoDB's:
the TTL monitor (src/mongo/db/ttl/ttl.cpp, metrics.ttl.deletedDocuments),
bulk write results (src/mongo/db/ops/write_ops.idl, nInserted/nMatched/
nModified/nUpserted/nRemoved), the E11000 reply
(src/mongo/db/storage/duplicate_key_error_info.cpp) and the server-side
retry of an upsert that lost an insert race
(src/mongo/db/ops/write_ops_exec.cpp, shouldRetryDuplicateKeyException;
jstests/noPassthrough/upsert_duplicate_key_retry.js), so the counter counts
every request.

The server runs with --setParameter ttlMonitorSleepSecs=1, so the expiry
test polls with a deadline for about a second instead of MongoDB's 60 s.
"""

import datetime
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import unittest

import pymongo
from pymongo import (DeleteOne, InsertOne, MongoClient, ReplaceOne,
                     ReturnDocument, UpdateMany, UpdateOne)
from pymongo.errors import BulkWriteError, DuplicateKeyError, OperationFailure


class Server:
    """`ttldb serve` on a free port over a fresh temporary directory."""

    def __init__(self, *args):
        self.dir = tempfile.mkdtemp(prefix="ttldb-pymongo-")
        self.proc = subprocess.Popen(
            [os.environ.get("TTLDB_BIN", "ttldb"), "serve", "--db", self.dir,
             "--port", "0", *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 20
        seen = ""
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            seen += line
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if m:
                self.port = int(m.group(1))
                # Keep draining stderr so the server never blocks on it.
                threading.Thread(target=self.proc.stderr.read,
                                 daemon=True).start()
                return
        self.proc.kill()
        raise RuntimeError("ttldb serve did not start: " + seen)

    def uri(self):
        return "mongodb://127.0.0.1:%d/" % self.port

    def stop(self):
        self.proc.terminate()
        code = self.proc.wait(timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)
        return code


class PymongoTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.server = Server("--setParameter", "ttlMonitorSleepSecs=1")
        cls.client = MongoClient(cls.server.uri(),
                                 serverSelectionTimeoutMS=10000)
        cls.db = cls.client.app

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        assert cls.server.stop() == 0, "clean shutdown"

    def ttl_deleted(self):
        status = self.client.admin.command("serverStatus")
        return int(status["metrics"]["ttl"]["deletedDocuments"])

    def test_crud(self):
        c = self.db.people
        when = datetime.datetime(2026, 1, 2, 3, 4, 5, 678000)
        r = c.insert_one({"_id": 1, "name": "ada", "age": 36, "at": when})
        self.assertEqual(r.inserted_id, 1)
        r = c.insert_many([{"_id": i, "name": "n%d" % i, "age": i}
                           for i in range(2, 12)])
        self.assertEqual(r.inserted_ids, list(range(2, 12)))
        # Dates round-trip at millisecond precision, naive UTC.
        self.assertEqual(c.find_one({"_id": 1})["at"], when)
        self.assertEqual(
            [d["_id"] for d in c.find({"age": {"$gte": 5}},
                                      {"_id": 1}).sort("age", -1).skip(1)
             .limit(3)],
            [11, 10, 9])  # ages 36, 11, 10, 9, ...: skip 36
        self.assertEqual(c.count_documents({"age": {"$lt": 5}}), 3)
        self.assertEqual(c.estimated_document_count(), 11)
        self.assertEqual(sorted(c.distinct("age", {"_id": {"$lte": 3}})),
                         [2, 3, 36])

        r = c.update_one({"_id": 1}, {"$inc": {"age": 1}, "$set": {"x": 1}})
        self.assertEqual((r.matched_count, r.modified_count), (1, 1))
        r = c.update_many({"age": {"$lt": 5}}, {"$set": {"young": True}})
        self.assertEqual((r.matched_count, r.modified_count), (3, 3))
        r = c.update_one({"_id": 99}, {"$set": {"name": "new"}}, upsert=True)
        self.assertEqual((r.matched_count, r.upserted_id), (0, 99))
        r = c.replace_one({"_id": 99}, {"name": "replaced"})
        self.assertEqual(c.find_one({"_id": 99}), {"_id": 99,
                                                   "name": "replaced"})
        doc = c.find_one_and_update({"_id": 1}, {"$inc": {"age": 1}},
                                    projection={"age": 1},
                                    return_document=ReturnDocument.AFTER)
        self.assertEqual(doc, {"_id": 1, "age": 38})

        with self.assertRaises(DuplicateKeyError) as e:
            c.insert_one({"_id": 1})
        self.assertEqual(e.exception.code, 11000)
        self.assertEqual(e.exception.details["keyPattern"], {"_id": 1})
        self.assertEqual(e.exception.details["keyValue"], {"_id": 1})
        with self.assertRaises(OperationFailure) as e:
            c.find_one({"age": {"$foo": 1}})
        self.assertEqual(e.exception.code, 2)
        self.assertEqual(e.exception.details["errmsg"],
                         "unknown operator: $foo")

        self.assertEqual(c.delete_one({"_id": 99}).deleted_count, 1)
        self.assertEqual(c.delete_many({"young": True}).deleted_count, 3)
        self.assertEqual(c.count_documents({}), 8)
        self.assertIn("people", self.db.list_collection_names())

    def test_ttl_index_and_expiry(self):
        c = self.db.events
        name = c.create_index([("createdAt", pymongo.ASCENDING)],
                              expireAfterSeconds=2)
        self.assertEqual(name, "createdAt_1")
        info = c.index_information()["createdAt_1"]
        self.assertEqual(info["expireAfterSeconds"], 2)
        before = self.ttl_deleted()
        now = datetime.datetime.utcnow()
        c.insert_many([
            {"_id": "old", "createdAt": now - datetime.timedelta(seconds=60)},
            {"_id": "new", "createdAt": now},
            {"_id": "later", "createdAt": now + datetime.timedelta(hours=1)},
            {"_id": "no date", "createdAt": "yesterday"},
        ])
        deadline = time.monotonic() + 20
        while self.ttl_deleted() < before + 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertEqual(self.ttl_deleted(), before + 2)
        self.assertEqual(sorted(d["_id"] for d in c.find()),
                         ["later", "no date"])
        r = self.db.command("collMod", "events",
                            index={"keyPattern": {"createdAt": 1},
                                   "expireAfterSeconds": 3600})
        self.assertEqual((r["expireAfterSeconds_old"],
                          r["expireAfterSeconds_new"]), (2, 3600))

    def next_change(self, stream, deadline_s=15):
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            change = stream.try_next()
            if change is not None:
                return change
        self.fail("no change event within %d s" % deadline_s)

    def test_watch_and_resume(self):
        # Change streams from ttldb's change log (docs/change_streams.md);
        # event shape: src/mongo/db/pipeline/change_stream_event_transform.cpp.
        c = self.db.watched
        with c.watch(max_await_time_ms=200) as stream:
            self.assertIsNone(stream.try_next())  # opened on the server
            c.insert_one({"_id": 1, "v": 1})
            c.update_one({"_id": 1}, {"$set": {"v": 2}})
            ins = self.next_change(stream)
            self.assertEqual(ins["operationType"], "insert")
            self.assertEqual(ins["fullDocument"], {"_id": 1, "v": 1})
            self.assertEqual(ins["ns"], {"db": "app", "coll": "watched"})
            token = ins["_id"]
        c.delete_one({"_id": 1})
        with c.watch(resume_after=token, max_await_time_ms=200) as stream:
            upd = self.next_change(stream)
            self.assertEqual(upd["operationType"], "update")
            self.assertEqual(upd["updateDescription"]["updatedFields"],
                             {"v": 2})
            self.assertEqual(self.next_change(stream)["operationType"],
                             "delete")

    def test_watch_sees_an_expiry(self):
        # A TTL deletion by the server's monitor is a delete event marked
        # expired (beyond MongoDB: docs/change_streams.md). (Debian's pymongo
        # 3.11 predates full_document_before_change; the Node driver's test
        # checks the pre-image.)
        c = self.db.expiring
        c.create_index("at", expireAfterSeconds=0)
        with c.watch([{"$match": {"operationType": "delete"}}],
                     max_await_time_ms=200) as stream:
            self.assertIsNone(stream.try_next())
            past = datetime.datetime.now(datetime.timezone.utc) - \
                datetime.timedelta(seconds=5)
            c.insert_one({"_id": "s1", "user": "ann", "at": past})
            deleted = self.next_change(stream, deadline_s=15)
            self.assertEqual(deleted["documentKey"], {"_id": "s1"})
            self.assertIs(deleted["expired"], True)
            self.assertEqual(c.count_documents({}), 0)

    def test_bulk_write(self):
        c = self.db.bulk
        r = c.bulk_write([
            InsertOne({"_id": 1, "n": 1}),
            InsertOne({"_id": 2, "n": 2}),
            UpdateOne({"_id": 1}, {"$inc": {"n": 10}}),
            UpdateMany({}, {"$set": {"seen": True}}),
            ReplaceOne({"_id": 2}, {"n": 20}),
            UpdateOne({"_id": 3}, {"$set": {"n": 3}}, upsert=True),
            DeleteOne({"_id": 1}),
        ])
        self.assertEqual(
            (r.inserted_count, r.matched_count, r.modified_count,
             r.upserted_count, r.deleted_count), (2, 4, 4, 1, 1))
        self.assertEqual(r.upserted_ids, {5: 3})
        self.assertEqual(list(c.find().sort("_id", 1)),
                         [{"_id": 2, "n": 20}, {"_id": 3, "n": 3}])

        # Ordered: stops at the duplicate (index 1).
        with self.assertRaises(BulkWriteError) as e:
            c.bulk_write([InsertOne({"_id": 4}), InsertOne({"_id": 2}),
                          InsertOne({"_id": 5})])
        d = e.exception.details
        self.assertEqual(d["nInserted"], 1)
        self.assertEqual([(w["index"], w["code"]) for w in d["writeErrors"]],
                         [(1, 11000)])
        # Unordered: goes on after it.
        with self.assertRaises(BulkWriteError) as e:
            c.bulk_write([InsertOne({"_id": 6}), InsertOne({"_id": 2}),
                          InsertOne({"_id": 7})], ordered=False)
        self.assertEqual(e.exception.details["nInserted"], 2)
        self.assertEqual(sorted(x["_id"] for x in c.find()),
                         [2, 3, 4, 6, 7])

    def test_concurrent_upserts_count_every_request(self):
        # 8 clients (8 connections) x 5 threads, released together by a
        # barrier, each upserting the same new document.
        threads_per_client = 5
        clients = [MongoClient(self.server.uri()) for _ in range(8)]
        try:
            for round_ in range(3):
                name = "hits%d" % round_  # a new collection each round
                barrier = threading.Barrier(len(clients) * threads_per_client)
                errors = []

                def hit(cl):
                    barrier.wait()
                    try:
                        cl.app[name].update_one({"_id": "page"},
                                                {"$inc": {"n": 1}},
                                                upsert=True)
                    except Exception as e:  # noqa: BLE001 (reported below)
                        errors.append(repr(e))

                threads = [threading.Thread(target=hit, args=(cl,))
                           for cl in clients
                           for _ in range(threads_per_client)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                self.assertEqual(errors, [])
                self.assertEqual(self.db[name].find_one({"_id": "page"}),
                                 {"_id": "page", "n": 40})
        finally:
            for cl in clients:
                cl.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
