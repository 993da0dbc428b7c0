/** data-testid values of the replay transport. */
export const REPLAY_IDS = {
  controls: 'replay-controls',
  play: 'replay-play',
  pause: 'replay-pause',
  step: 'replay-step',
  speed: 'replay-speed',
  seek: 'replay-seek',
  position: 'replay-position',
  finished: 'replay-finished',
  restart: 'replay-restart',
} as const;
