# Import stops at the first bad line with a non-zero exit, naming the line;
# every document before it is imported.
printf '{"_id":1}\n{"_id":2}\n{"_id":3,"a":}\n{"_id":4}\n' > bad.json
"$TTLDB" import --db db --collection c --file bad.json
echo "[exit $?]"
"$TTLDB" --db db --quiet --eval 'db.c.find()'
echo "== a duplicate key stops the import at its line"
printf '{"_id":10}\n\n{"_id":11}\n{"_id":10}\n{"_id":12}\n' > dup.json
"$TTLDB" import --db db --collection d --file dup.json
echo "[exit $?]"
"$TTLDB" --db db --quiet --eval 'db.d.find()'
echo "== not a document"
printf '{"_id":1}\n[1,2]\n' | "$TTLDB" import --db db --collection e
echo "[exit $?]"
echo "== \$numberDecimal that is not an exact Decimal128 string"
printf '{"x":{"$numberDecimal":"12345678901234567890123456789012345"}}\n' | "$TTLDB" import --db db --collection f
echo "[exit $?]"
echo "== missing file, missing --collection"
"$TTLDB" import --db db --collection g --file nope.json 2>&1 | sed 's/nope.json: .*/nope.json: <errno>/'
"$TTLDB" import --db db 2>&1 | sed -n 1p
echo "== a bad index file"
printf '[{"v":2,"key":{"t":1},"name":"t_1","expireAfterSeconds":-5}]' > idx.json
"$TTLDB" import --db db --collection h --indexes idx.json < /dev/null
echo "[exit $?]"
