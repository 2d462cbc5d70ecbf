"""Rank statistics of the lab's scripts, computed as `kerncast validate` computes them: ties
share their average rank. Values may be numbers or tuples (a forecast and its tie-break)."""


def average_ranks(values):
    """0-based ranks of `values`, equal ones sharing the average of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2
        i = j + 1
    return ranks


def spearman(a, b):
    """Spearman's rho of two equally long lists."""
    ra, rb = average_ranks(a), average_ranks(b)
    mean = (len(a) - 1) / 2
    cov = sum((x - mean) * (y - mean) for x, y in zip(ra, rb))
    va = sum((x - mean) ** 2 for x in ra)
    vb = sum((y - mean) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5
