# --eval prints each expression's value; FILE scripts print only print()
# output (as mongosh); standard input echoes results; exit/quit codes.
"$TTLDB" --db db --quiet --eval 'db.c.insertOne({_id: 1, a: NumberLong(2)})' --eval 'db.c.findOne()'
echo "[exit $?]"
"$TTLDB" --db db --quiet --json --eval 'db.c.find()'
echo "[exit $?]"
printf 'db.c.findOne()\nprint("from a file")\nprintjson(db.c.countDocuments())\n' > s.js
"$TTLDB" --db db --quiet s.js
echo "[exit $?]"
printf 'db.c.countDocuments()\nquit(3)\nprint("not reached")\n' | "$TTLDB" --db db --quiet
echo "[exit $?]"
printf 'let n = db.c.countDocuments(); n\nexit\nprint("not reached")\n' | "$TTLDB" --db db --quiet
echo "[exit $?]"
printf 'help\n' | "$TTLDB" --db db --quiet | sed -n 1,3p
printf 'print("missing file")' > t.js
"$TTLDB" --db db --quiet t.js nonexistent.js 2>&1 | sed 's/: No such.*/: <errno>/'
echo "[exit ${PIPESTATUS[0]}]"
"$TTLDB" --bogus 2>&1 | sed -n 1p
echo "[exit ${PIPESTATUS[0]}]"
# The default data directory, announced on stderr.
TTLDB_HOME="$PWD/home-db" "$TTLDB" --eval 'db.getCollectionNames()' 2>&1 | sed "s|$PWD|<work>|"
XDG_DATA_HOME="$PWD/xdg" "$TTLDB" --eval '1' 2>&1 | sed "s|$PWD|<work>|"
HOME="$PWD/h" "$TTLDB" --eval '1' 2>&1 | sed "s|$PWD|<work>|"
HOME="$PWD/h" "$TTLDB" --quiet --eval '1' 2>&1
ls h/.local/share/ttldb/default >/dev/null && echo "created h/.local/share/ttldb/default"
