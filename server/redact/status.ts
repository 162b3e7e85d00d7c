import { registerDataSet } from '../status';
import { ENGINE_NAME, ENGINE_VERSION } from './index';
import { DEFAULT_RECOGNIZERS } from './recognizers/registry';

/** Health: the redaction engine and its recognizers (the gazetteers load with the module). */
registerDataSet('redaction', () => ({
  name: 'redaction',
  loaded: true,
  detail: { engine: ENGINE_NAME, engine_version: ENGINE_VERSION, recognizers: DEFAULT_RECOGNIZERS.map((r) => r.name) },
}));
