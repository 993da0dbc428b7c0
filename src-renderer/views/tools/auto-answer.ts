import { browserStorage } from '../../app/browser';
import type { AppModel } from '../../model/types';
import { createAutoAnswerer, createAutoAnswerStore, type AutoAnswerer, type AutoAnswerStore } from '../../model/tools';

/**
 * One auto-answer setup per app: the settings (persisted in localStorage) and the answerer
 * that sends each pending set once, through the contract, reporting failures in place.
 */
export interface AutoAnswering {
  store: AutoAnswerStore;
  answerer: AutoAnswerer;
}

const perApp = new WeakMap<AppModel, AutoAnswering>();

export function autoAnswering(app: AppModel): AutoAnswering {
  let setup = perApp.get(app);
  if (!setup) {
    const store = createAutoAnswerStore(browserStorage());
    const answerer = createAutoAnswerer({
      settings: () => store.getSnapshot(),
      send: async (request) => {
        const sent = await app.run(
          'Auto-answer frontend tools',
          () => app.commands(request.sessionId).sendToolResults(request),
          request.sessionId,
        );
        await app.refreshSession(request.sessionId);
        return sent;
      },
      onSkipped: (sessionId, tools) =>
        app.reportError(
          'Auto-answer frontend tools',
          new Error(
            `No auto-answer rule for ${tools.join(', ')}: answer this prompt by hand, or add a rule (or a * rule).`,
          ),
          sessionId,
        ),
    });
    setup = { store, answerer };
    perApp.set(app, setup);
  }
  return setup;
}
