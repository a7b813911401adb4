#!/bin/bash
# perf script -s python and perl: the values of a group read
# SPDX-License-Identifier: GPL-2.0
#
# A sample read by the leader of a group ('{a,b,c}:S') holds the value and
# id of each member.  A python script gets them as sample['values'], a
# list of (id, value) tuples, a perl script the record as it is: both must
# be the values perf report -D dumps, member by member.

set -e

name="perf script -s of a group read"
tmp=$(mktemp -d /tmp/script-group-read.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# what perf record writes to ~/.debug goes with the rest
export HOME=$tmp
err=0
skips=()

skip() {
	echo "$name [Skipped $1]"
	exit 2
}

perf version --build-options > "$tmp/options"
have() { grep -q "^ *$1: \[ on" "$tmp/options"; }
have libpython || have libperl || skip "perf built without libpython and libperl"

events='{task-clock,page-faults,context-switches}:S'
# shellcheck disable=SC2016 # sh expands these
if ! perf record -q -o "$tmp/perf.data" -e "$events" -c 1000000 -- \
	sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' \
	> /dev/null 2> "$tmp/record.err"; then
	skip "perf record -e '$events' failed: $(head -c 200 "$tmp/record.err")"
fi

# The reference: for each sample, its values as "id:value ..." in hex.
# perf script calls a script for each member whose value changed since
# the last sample, once at least (the leader's): compare the lines, each
# sample having a line of its own (the leader's value only grows).
perf report -D -i "$tmp/perf.data" 2> /dev/null | awk '
	/^\.\.\.\. group nr / { n = $4; k = 0; line = ""; next }
	n && /^\.\.\.\.\. id / {
		gsub(/,/, "")
		line = line (k ? " " : "") $3 ":" $5
		if (++k == n) {
			print line
			n = 0
		}
	}' | sort > "$tmp/expected"
samples=$(wc -l < "$tmp/expected")
value='[0-9a-f]{16}:[0-9a-f]{16}'
if [ "$samples" -lt 3 ] || ! head -n1 "$tmp/expected" | grep -qE "^($value ){2}$value\$"; then
	echo "$name [Failed - no group read of 3 in perf report -D: $samples sample(s)]"
	head -n 3 "$tmp/expected"
	exit 1
fi

# check LANG SCRIPT: what perf script -s SCRIPT prints is the reference
check() {
	local lang=$1

	if ! perf script -i "$tmp/perf.data" -s "$2" > "$tmp/$lang.out" 2> "$tmp/$lang.err"; then
		echo "$name: $lang [Failed - perf script -s exits non-zero]"
		head -n 20 "$tmp/$lang.err"
		err=1
		return
	fi
	sort -u "$tmp/$lang.out" > "$tmp/$lang.sorted"
	if ! cmp -s "$tmp/expected" "$tmp/$lang.sorted"; then
		echo "$name: $lang [Failed - values other than perf report -D's]"
		diff "$tmp/expected" "$tmp/$lang.sorted" | head -n 10
		head -n 20 "$tmp/$lang.err"
		err=1
		return
	fi
	echo "$name: $lang [Ok: the values of ${samples} samples]"
}

cat > "$tmp/values.py" <<'EOF'
def process_event(param_dict):
	values = param_dict["sample"]["values"]
	print(" ".join("%016x:%016x" % (v[0], v[1]) for v in values))
EOF

# perl has the record itself: walk the fields before PERF_SAMPLE_READ
# (IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD, each a u64)
# by the attr's sample_type, then the group read by its read_format.
cat > "$tmp/values.pl" <<'EOF'
sub process_event {
	my ($event, $attr, $sample, $raw_data) = @_;
	my ($sample_type, $read_format) = unpack("x24 Q Q", $attr);
	my $off = 8;
	my @v;

	foreach my $bit (16, 0, 1, 2, 3, 6, 9, 7, 8) {
		$off += 8 if ($sample_type & (1 << $bit));
	}
	return unless ($sample_type & (1 << 4)) && ($read_format & (1 << 3));
	my $nr = unpack("x$off Q", $event);
	$off += 8;
	$off += 8 if ($read_format & 1);
	$off += 8 if ($read_format & 2);
	for (my $i = 0; $i < $nr; $i++) {
		my ($value, $id) = unpack("x$off Q Q", $event);
		push @v, sprintf("%016x:%016x", $id, $value);
		$off += ($read_format & 16) ? 24 : 16;
	}
	print join(" ", @v), "\n";
}
EOF

if have libpython; then
	check python "$tmp/values.py"
else
	echo "$name: python [Skipped perf built without libpython]"
	skips+=(python)
fi
if have libperl; then
	check perl "$tmp/values.pl"
else
	echo "$name: perl [Skipped perf built without libperl]"
	skips+=(perl)
fi

[ "$err" = 0 ] || exit 1
[ ${#skips[@]} = 0 ] || exit 2
exit 0
