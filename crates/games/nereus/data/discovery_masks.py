# Discovery masks for Waters of Nereus: every cell on exactly 4 of 12 cards,
# card loads balanced. Fixed seed 16 (issue 16), Python's random.Random.
import random
def gen(cells, seed):
    r = random.Random(seed)
    while True:
        load = [0]*12
        cards = [[] for _ in range(12)]
        ok = True
        order = list(range(cells)); r.shuffle(order)
        for c in order:
            cand = sorted(range(12), key=lambda k:(load[k], r.random()))[:4]
            for k in cand:
                load[k]+=1; cards[k].append(c)
        if max(load)-min(load) <= 1: return cards
for cells, name in ((36,"SIX"),(25,"FIVE")):
    cards = gen(cells, 16)
    print(f"pub const DISCOVERY_{name}: [u64; 12] = [")
    for k in cards:
        m = 0
        for c in k: m |= 1<<c
        print(f"    0x{m:012x}, // {len(k)} spaces")
    print("];")
