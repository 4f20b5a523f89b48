# Query errors with MongoDB's codes and messages, one command each (an
# error ends a script). T5: src/mongo/util/pcre_util.cpp flagsToOptions
# (51108, its message starts with a space) and expression_leaf.cpp
# RegexMatchExpression (51091). T11: expression_parser.cpp parseMOD.
"$TTLDB" --db db --quiet --eval 'db.c.insertOne({_id: 0, a: 1})'
"$TTLDB" --db db --quiet --eval 'db.c.find({a: {$regex: "a("}}).toArray()'
"$TTLDB" --db db --quiet --eval 'db.c.find({a: {$regex: "a", $options: "g"}}).toArray()'
"$TTLDB" --db db --quiet --eval 'db.c.find({a: {$mod: [Infinity, 1]}}).toArray()'
"$TTLDB" --db db --quiet --eval 'db.c.find({a: {$mod: [4, NaN]}}).toArray()'
"$TTLDB" --db db --quiet --eval 'db.c.find({a: {$mod: [1e19, 1]}}).toArray()'
"$TTLDB" --db db --quiet --eval 'db.c.find({a: {$mod: [4, -1e300]}}).toArray()'
echo "[exit $?]"
