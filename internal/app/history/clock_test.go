package history

import "time"

// nowNS reads the monotonic clock; benchmarks only, never output.
func nowNS() int64 { return int64(time.Since(start)) }

var start = time.Now()
