/**
 * Data sets a domain has loaded, for the health endpoint. Each domain registers a cheap probe at import time.
 */
export interface DataSetStatus {
  name: string;
  loaded: boolean;
  detail?: Record<string, string | number | boolean | string[]>;
}

type Probe = () => Promise<DataSetStatus> | DataSetStatus;
const slot: { probes: Map<string, Probe> } = ((globalThis as { __codingGatewayStatus?: { probes: Map<string, Probe> } }).__codingGatewayStatus ??= {
  probes: new Map(),
});

export function registerDataSet(name: string, probe: Probe): void {
  slot.probes.set(name, probe);
}

export async function dataSetStatuses(): Promise<DataSetStatus[]> {
  const out: DataSetStatus[] = [];
  for (const [name, probe] of slot.probes) {
    try {
      out.push(await probe());
    } catch (err) {
      out.push({ name, loaded: false, detail: { error: err instanceof Error ? err.message : 'probe failed' } });
    }
  }
  return out;
}
