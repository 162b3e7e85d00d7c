import { definePeriodic } from '../queue';
import { log } from '../log';
import { sweepExpiredReservations } from './ledger';

/**
 * Releases spend reservations whose request died with its process (a crash between the reservation and the
 * settlement): once a reservation is past its expiry its amount goes back to the pool. Every minute, wherever workers
 * run (the web process, or `npm run worker`), and once at start-up.
 */
export const RESERVATION_SWEEP = 'billing-reservation-sweep';

definePeriodic({
  name: RESERVATION_SWEEP,
  everySeconds: () => 60,
  async run(db) {
    const released = await sweepExpiredReservations(db);
    if (released) log.warn('expired spend reservations released', { released });
    return released;
  },
});
