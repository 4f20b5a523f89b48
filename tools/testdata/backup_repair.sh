# ttldb backup (a closed directory, opened read_only: nothing in it is
# written) and ttldb repair (report, exit status), and their usage errors.
"$TTLDB" --db src --quiet --eval 'db.c.insertMany([{_id: 1, t: ISODate("2026-01-01T00:00:00Z")}, {_id: 2, k: [1, 2]}]); db.c.createIndex({t: 1}, {expireAfterSeconds: 60}); db.c.createIndex({k: 1})' >/dev/null || exit 1
ls src | sort > before.txt
cat src/CURRENT > current.before
echo "== backup"
"$TTLDB" backup --db src --out copies/first | sed -e 's/: [0-9]* keys, [0-9]* bytes/: N keys, N bytes/'
echo "exit $?"
ls src | sort | diff before.txt - && diff current.before src/CURRENT && echo "source unchanged"
"$TTLDB" --db copies/first --quiet --eval 'db.c.find()' --eval 'db.c.getIndexes()'
echo "== backup into a non-empty directory"
"$TTLDB" backup --db src --out copies/first --quiet
echo "exit $?"
echo "== repair"
"$TTLDB" repair --db copies/first
echo "exit $?"
"$TTLDB" --db copies/first --quiet --eval 'db.c.countDocuments({k: 2})'
echo "== usage"
"$TTLDB" backup --db src
echo "exit $?"
"$TTLDB" repair
echo "exit $?"
