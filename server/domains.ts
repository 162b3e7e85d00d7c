/**
 * Domain modules that register start-up tasks, queues, data-set probes or custom routes when imported.
 * Every entry point (web server, worker, CLI) imports this file once.
 */
import './search/startup';
import './batch/queues';
import './drg/status';
import './redact/status';
import './billing/sweep';

export {};
