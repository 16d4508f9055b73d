/* eslint-disable @typescript-eslint/no-explicit-any -- hub answers of many shapes */

/**
 * `POST /fhircast/STU3` with `hub.mode=subscribe` over a websocket channel, as an app does: the
 * hub's status and answer (whose `hub.channel.endpoint` is the socket to open).
 */
export async function fhircastSubscribe(
  base: string,
  topic: string,
  events: string,
  bearer: string,
): Promise<{ status: number; body: any }> {
  const response = await fetch(new URL('fhircast/STU3', base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${bearer}` },
    body: new URLSearchParams({
      'hub.channel.type': 'websocket',
      'hub.mode': 'subscribe',
      'hub.topic': topic,
      'hub.events': events,
    }).toString(),
  });
  return { status: response.status, body: await response.json() };
}
