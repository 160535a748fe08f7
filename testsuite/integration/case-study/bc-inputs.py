#!/usr/bin/env python3
"""A random bc program, from its seed: usage bc-inputs.py SEED, or
bc-inputs.py FIRST LAST DIR to write the programs of seeds FIRST to LAST
into DIR/SEED.bc (one Python start for many).

Up to 400 simple variables and 300 arrays, defined in a random order with
random values and arithmetic between them, some printed along the way and
the last few at the end.  Programs that use many variables before they
define many arrays make the re-introduced more_arrays bug write past the
end of its block (see bc-more-arrays.patch)."""
import random, sys

def program(seed):
    rng = random.Random(seed)
    n_variables, n_arrays = rng.randint(0, 400), rng.randint(0, 300)
    names = ["v%d" % i for i in range(n_variables)] + ["a%d[]" % i for i in range(n_arrays)]
    rng.shuffle(names)
    lines = ["scale=%d" % rng.randint(0, 10)]
    variables, elements = [], []
    for name in names:
        if name.endswith("[]"):
            element = "%s[%d]" % (name[:-2], rng.randint(0, 20))
            lines.append("%s=%d" % (element, rng.randint(-999, 999)))
            elements.append(element)
        else:
            value = str(rng.randint(-99999, 99999))
            if variables and rng.random() < 0.5:
                value = "%s%s%d" % (rng.choice(variables), rng.choice("+-*/^"), rng.randint(1, 9))
            lines.append("%s=%s" % (name, value))
            variables.append(name)
        if rng.random() < 0.1 and variables + elements:
            lines.append(rng.choice(variables + elements))
    lines.extend(variables[-5:] + elements[-5:])
    return "\n".join(lines) + "\nquit\n"

if len(sys.argv) == 4:
    for seed in range(int(sys.argv[1]), int(sys.argv[2]) + 1):
        with open("%s/%d.bc" % (sys.argv[3], seed), "w") as out:
            out.write(program(seed))
else:
    sys.stdout.write(program(int(sys.argv[1])))
