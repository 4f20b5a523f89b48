# Import skips documents a TTL index of the target has already expired by
# more than the clock-skew tolerance (default 120 s); within it, they are
# imported (and then expire normally). Partial filters are honoured.
ago() { date -u -d "-$1 seconds" +%Y-%m-%dT%H:%M:%S.000Z; }
"$TTLDB" --db db --quiet --eval 'db.events.createIndex({accessTime: 1}, {expireAfterSeconds: 60})' \
  --eval 'db.partial.createIndex({at: 1}, {expireAfterSeconds: 0, partialFilterExpression: {kind: "temp"}})'
cat > events.json <<JSON
{"_id":1,"accessTime":{"\$date":"$(ago 600)"},"note":"expired 9 min ago: skipped"}
{"_id":2,"accessTime":{"\$date":"$(ago 150)"},"note":"expired 90 s ago: within tolerance"}
{"_id":3,"accessTime":{"\$date":"$(ago 0)"},"note":"fresh"}
{"_id":4,"note":"no accessTime: never expires"}
{"_id":5,"accessTime":"yesterday","note":"a string: never expires"}
{"_id":6,"accessTime":[{"\$date":"$(ago 0)"},{"\$date":"$(ago 3600)"}],"note":"array: earliest date counts"}
JSON
"$TTLDB" import --db db --collection events --file events.json
echo "[exit $?]"
"$TTLDB" --db db --quiet --json --eval 'db.events.find({}, {note: 1})'
echo "== --skew-tolerance-secs 0 skips the one expired 90 s ago too"
"$TTLDB" --db db --quiet --eval 'db.zero.createIndex({accessTime: 1}, {expireAfterSeconds: 60})'
"$TTLDB" import --db db --collection zero --file events.json --skew-tolerance-secs 0
"$TTLDB" --db db --quiet --eval 'db.zero.countDocuments()'
echo "== rejectExpired: every expired document is skipped"
"$TTLDB" --db db --quiet --eval 'db.strict.createIndex({accessTime: 1}, {expireAfterSeconds: 60, rejectExpired: true})'
"$TTLDB" import --db db --collection strict --file events.json
echo "== --drop also drops the TTL index: nothing is skipped"
"$TTLDB" import --db db --collection events --file events.json --drop
echo "== no TTL index: nothing is skipped"
"$TTLDB" import --db db2 --collection events --file events.json
echo "== partial TTL index: only matching documents are checked"
cat > partial.json <<JSON
{"_id":1,"kind":"temp","at":{"\$date":"2001-01-01T00:00:00Z"}}
{"_id":2,"kind":"keep","at":{"\$date":"2001-01-01T00:00:00Z"}}
{"_id":3,"kind":"temp","at":{"\$date":"2999-01-01T00:00:00Z"}}
JSON
"$TTLDB" import --db db --collection partial --file partial.json
"$TTLDB" --db db --quiet --json --eval 'db.partial.find({}, {kind: 1})'
echo "== two TTL indexes"
"$TTLDB" --db db3 --quiet --eval 'db.two.createIndex({a: 1}, {expireAfterSeconds: 10})' --eval 'db.two.createIndex({b: 1}, {expireAfterSeconds: 10})'
printf '{"a":{"$date":"2001-01-01T00:00:00Z"}}\n{"b":{"$date":"2001-01-01T00:00:00Z"}}\n{"a":{"$date":"2001-01-01T00:00:00Z"}}\n{"c":1}\n' \
  | "$TTLDB" import --db db3 --collection two
