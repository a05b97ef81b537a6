module gonethttp

go 1.19
