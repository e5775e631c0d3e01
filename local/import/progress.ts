import cliProgress from 'cli-progress';

/**
 * What an operator watches during an import: one progress bar per phase with the count, the rate
 * and the time left (cli-progress), on a terminal; plain log lines when stdout is not one (CI,
 * a pipe, a log file), at most one every few seconds per phase. The programmatic entry defaults
 * to silence.
 */
export interface PhaseProgress {
  /** `by` more items done (of `total`, which may grow). */
  tick(by?: number, total?: number): void;
  done(): void;
}

export interface Progress {
  phase(name: string, total: number, unit: string): PhaseProgress;
  log(line: string): void;
}

export const silentProgress: Progress = {
  phase: () => ({ tick() {}, done() {} }),
  log() {},
};

/** A bar on a TTY, log lines elsewhere. */
export function consoleProgress(stream: NodeJS.WriteStream = process.stdout): Progress {
  return stream.isTTY ? barProgress(stream) : lineProgress((line) => stream.write(`${line}\n`));
}

function barProgress(stream: NodeJS.WriteStream): Progress {
  return {
    phase(name, total, unit) {
      const bar = new cliProgress.SingleBar(
        {
          stream,
          format: `${name.padEnd(10)} [{bar}] {value}/{total} ${unit} | {rate}/s | {duration_formatted} elapsed, {eta_formatted} left`,
          etaBuffer: 50,
          hideCursor: true,
          clearOnComplete: false,
        },
        cliProgress.Presets.shades_classic,
      );
      const started = Date.now();
      let value = 0;
      bar.start(total, 0, { rate: '0' });
      return {
        tick(by = 1, newTotal) {
          value += by;
          if (newTotal !== undefined) bar.setTotal(newTotal);
          const seconds = (Date.now() - started) / 1000;
          bar.update(value, { rate: seconds > 0 ? (value / seconds).toFixed(0) : '0' });
        },
        done() {
          bar.stop();
        },
      };
    },
    log: (line) => stream.write(`${line}\n`),
  };
}

export function lineProgress(write: (line: string) => void, everyMs = 5_000): Progress {
  return {
    phase(name, total, unit) {
      const started = Date.now();
      let value = 0;
      let shown = 0;
      let all = total;
      const line = () => {
        const seconds = (Date.now() - started) / 1000;
        const rate = seconds > 0 ? value / seconds : 0;
        const left = rate > 0 && all > value ? `, ${Math.ceil((all - value) / rate)} s left` : '';
        return `${name}: ${value}/${all} ${unit} (${rate.toFixed(0)}/s, ${seconds.toFixed(0)} s${left})`;
      };
      return {
        tick(by = 1, newTotal) {
          value += by;
          if (newTotal !== undefined) all = newTotal;
          if (Date.now() - shown >= everyMs) {
            shown = Date.now();
            write(line());
          }
        },
        done() {
          write(`${line()} done`);
        },
      };
    },
    log: write,
  };
}
