import { useEffect, useState } from 'react';

/** "Now", moved on every minute, so that "waiting 18 min" keeps counting on a screen left open. */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
