var g = x => [g(x), g(x)]
g(1)
