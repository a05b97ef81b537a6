// The first module bin/conform.mjs imports, so that its body runs before any other module loads
// (node:crypto for the digest of the sources, then the program: half a second, 3 s on a loaded
// machine). Without a handler, Node ends the process at a SIGINT or SIGTERM without a word, and the
// report folder kept an earlier run's reports (its PASS) as this run's. Until the program's own
// handler takes over (lib/cli/signal-exit.ts), a signal is held here: said at once, then handed
// over, and the run writes reports that say it was interrupted before it started. A second
// signal, or a program still loading 10 s on, exits at once, saying that nothing was sent: loading
// is no hang, and took more than the 3 s a started run is given at a load of 20 (measured).
// the first code of the command that runs: Node's own start ends here (scripts/bench measures it)
performance.mark('conform:entry')
const EXITS = { SIGINT: 130, SIGTERM: 143 }
const early = { signal: undefined, timer: undefined }

function onEarlySignal(signal) {
  const leave = (why) => {
    process.stderr.write(`conform: ${why}: exiting now, without the reports; no request was sent\n`)
    process.exit(EXITS[signal] ?? 2)
  }
  if (early.signal !== undefined) return leave(early.signal === signal ? `${signal} again` : `${signal} after ${early.signal}`)
  early.signal = signal
  process.stderr.write(`conform: ${signal} while starting: stopping before any request; a run's reports will say so (${signal} again: exit at once, without them)\n`)
  early.timer = setTimeout(() => leave(`still starting 10 s after ${signal}`), 10_000)
}
process.on('SIGINT', onEarlySignal)
process.on('SIGTERM', onEarlySignal)

/** Hands a held signal over to the program's handler (which the caller sets at once): the signal, if one came. */
export function releaseSignals() {
  process.off('SIGINT', onEarlySignal)
  process.off('SIGTERM', onEarlySignal)
  clearTimeout(early.timer)
  return early.signal
}
