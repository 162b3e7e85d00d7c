import { registerStartupTask } from '../bootstrap';
import { registerDataSet } from '../status';
import { DEFAULT_VERSION, getGrouper, grouperLoadStats, listVersions } from './index';

/**
 * Start-up: compile (or load from the cache) the default grouper version so the first classification is fast.
 * Health: which versions are available, their fidelity, and which are loaded in this process.
 */
registerStartupTask({
  name: 'msdrg-default-version',
  async run() {
    await getGrouper(DEFAULT_VERSION);
  },
});

registerDataSet('msdrg', () => {
  const versions = listVersions();
  const loaded = versions.filter((v) => grouperLoadStats(v.version)).map((v) => v.version);
  return {
    name: 'msdrg',
    loaded: loaded.length > 0,
    detail: {
      default: DEFAULT_VERSION,
      available: versions.map((v) => `${v.version} (${v.fidelity})`),
      loaded,
    },
  };
});
