# Decimal128 values survive export -> import -> export (relaxed and
# canonical Extended JSON both write {"$numberDecimal": "..."}), and an
# invalid $numberDecimal in an import is refused with its line.
"$TTLDB" --db a --quiet --eval 'db.d.insertMany([{_id: 1, v: NumberDecimal("1.50")}, {_id: 2, v: NumberDecimal("-1E-6176")}, {_id: 3, v: NumberDecimal("NaN")}, {_id: NumberDecimal("2.5"), v: NumberDecimal("9.999999999999999999999999999999999E+6144")}])' || exit 1
"$TTLDB" export --db a --collection d --out d.json
cat d.json
"$TTLDB" export --db a --collection d --canonical --quiet
"$TTLDB" import --db b --collection d --file d.json
"$TTLDB" export --db b --collection d --quiet | diff d.json - && echo identical
"$TTLDB" --db b --quiet --eval 'db.d.find({_id: 2.5})'
echo '{"_id": 9, "v": {"$numberDecimal": "1.5x"}}' > bad.json
"$TTLDB" import --db b --collection d --file bad.json
echo "exit $?"
