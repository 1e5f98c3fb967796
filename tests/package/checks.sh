# What consumer.sh and deb.sh expect of the programs they build, in one place (sourced by both).

fail() { echo "FAILED: $*" >&2; exit 1; }

# needed_libraries PROGRAM: the shared libraries PROGRAM loads (its NEEDED entries), one a line.
needed_libraries() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

# expect_consumer_answers OUTPUT: tests/consumer's client saw the generated schema, the conversion
# and the refusal that names the field.
expect_consumer_answers() {
  echo "$1" | grep -q '^value must be at least 0$' || fail "the generated schema lost the field's minimum: $1"
  echo "$1" | grep -q '^42195 metre = 26.219 mile$' || fail "the conversion was not answered: $1"
  echo "$1" | grep -q '^refused: .*value' || fail "the out-of-range value was not refused naming the field: $1"
}

# expect_every_part_answer OUTPUT VERSION: tests/package/components/every_part reached each part.
expect_every_part_answer() {
  [ "$1" = "libmcp $2 (headers $2), session store, redis at cache.internal:6390 db 2" ] || fail "every_part's answer: $1"
}
