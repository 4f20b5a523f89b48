# Export -> import -> export preserves every value type, in the default
# (relaxed, Long kept) and canonical formats; index specs round-trip too.
"$TTLDB" --db a --quiet "$DATA/fixtures/roundtrip_data.js" || exit 1
echo "== export (relaxed)"
"$TTLDB" export --db a --collection all --out all.json
cat all.json
echo "== export --indexes"
"$TTLDB" export --db a --collection all --indexes --out all.indexes.json
cat all.indexes.json
echo "== import into a fresh database, export again: identical"
"$TTLDB" import --db b --collection all --file all.json --indexes all.indexes.json
"$TTLDB" export --db b --collection all --quiet | diff all.json - && echo identical
"$TTLDB" export --db b --collection all --indexes --quiet | diff all.indexes.json - && echo identical indexes
echo "== the imported documents in the shell"
"$TTLDB" --db b --quiet --eval 'db.all.find({_id: 1})'
echo "== canonical export and its import: identical"
"$TTLDB" export --db b --collection all --canonical --out all.canonical.json --quiet
head -c 300 all.canonical.json; echo
"$TTLDB" import --db c --collection all --file all.canonical.json
"$TTLDB" export --db c --collection all --quiet | diff all.json - && echo identical
echo "== import from standard input, --drop replaces"
"$TTLDB" import --db c --collection all --drop < all.json
"$TTLDB" --db c --quiet --eval 'db.all.countDocuments()'
echo "== mongoexport output: relaxed, canonical and --jsonArray"
"$TTLDB" import --db d --collection m --file "$DATA/fixtures/mongoexport.json"
"$TTLDB" import --db d --collection arr --file "$DATA/fixtures/mongoexport_array.json"
"$TTLDB" --db d --quiet --eval 'db.m.find()' --eval 'db.arr.find()'
