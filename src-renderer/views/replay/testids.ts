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
  loop: 'replay-loop',
  breakpoints: 'replay-breakpoints',
  breakpointOption: 'replay-breakpoint-option',
  breakpointsClear: 'replay-breakpoints-clear',
  hit: 'replay-hit',
  hitShow: 'replay-hit-show',
  continue: 'replay-continue',
} as const;
