import { useCallback, useEffect, useRef, useState } from 'react';
import type { Attachment, Communication, Reference } from '@medplum/fhirtypes';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { isCriteriaBound, subscriptionManagerFor, useShellClient } from '../../src/shell';
import {
  conversationCriteria,
  conversationQuery,
  markedRead,
  mergeMessages,
  newChatMessage,
  unreadFor,
} from './chatMessages';
import { useLiveChatNotices } from './useLiveChatNotices';

/** How often a conversation without its live subscription is read again. */
export const CHAT_POLL_MS = 30_000;

export interface Conversation {
  messages: Communication[];
  loading: boolean;
  /** The conversation could not be loaded. */
  error?: string;
  /**
   * The live subscription could not be made (the reader's policy does not allow Subscriptions, the
   * server refused it): the conversation is read again every `CHAT_POLL_MS` instead.
   */
  polled: boolean;
  /** Sends a message; rejects (and changes nothing shown) when the server refuses it. */
  send(message: { text: string; attachment?: Attachment; recipient?: Reference }): Promise<Communication>;
}

/**
 * A patient's conversation (app-spec §2.12, §4 'Chat connection', §7 'Chat'): loaded by subject
 * newest first without the cache, kept live over the realtime socket, reloaded when the
 * subscription is (re)bound so a message sent while the socket was down still appears, merged by
 * id so none shows twice.
 */
export function useConversation(patientId: string | undefined, sender: Reference | undefined): Conversation {
  const client = useShellClient();
  const [messages, setMessages] = useState<Communication[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const [polled, setPolled] = useState(false);
  const active = useRef(true);

  const load = useCallback(async () => {
    if (!patientId) return;
    try {
      const found = await client.searchResources('Communication', conversationQuery(patientId), { cache: 'no-store' });
      if (!active.current) return;
      setMessages((shown) => mergeMessages(shown, found));
      setError(undefined);
    } catch (cause) {
      if (active.current) setError(normalizeErrorString(cause));
    } finally {
      if (active.current) setLoading(false);
    }
  }, [client, patientId]);

  useLiveChatNotices(load);

  useEffect(() => {
    active.current = true;
    setMessages([]);
    setLoading(true);
    void load();
    const manager = patientId ? subscriptionManagerFor(client) : undefined;
    if (!manager || !patientId) {
      return () => void (active.current = false);
    }
    const criteria = conversationCriteria(patientId);
    // The notification says which message changed; it is read again because a read answers
    // attachments as signed download addresses, which the notified copy does not carry.
    const stopListening = manager.addListener(criteria, ({ resource }) => {
      if (resource?.resourceType !== 'Communication' || !resource.id) return void load();
      client.readResource('Communication', resource.id, { cache: 'no-store' }).then(
        (message) => active.current && setMessages((shown) => mergeMessages(shown, [message as Communication])),
        () => void load(),
      );
    });
    // Bound (first time or after a reconnect): whatever changed before the binding is read now.
    const offBound = manager.on('bound', (event) => {
      if (event.criteria !== criteria) return;
      setPolled(false);
      void load();
    });
    // Not bound and failing: the subscription or its binding was refused. A listener's own failure
    // comes while bound and changes nothing here.
    const offError = manager.on('error', (event) => {
      if (event.criteria === criteria && !isCriteriaBound(manager, criteria)) setPolled(true);
    });
    return () => {
      active.current = false;
      stopListening();
      offBound();
      offError();
      setPolled(false);
    };
  }, [client, patientId, load]);

  // Without live updates a message from the other side would wait for a reload: read again instead.
  useEffect(() => {
    if (!polled) return undefined;
    const timer = setInterval(() => void load(), CHAT_POLL_MS);
    return () => clearInterval(timer);
  }, [polled, load]);

  // Whatever is addressed to the reader is read once it is shown (the Mail icon counts the rest).
  const marking = useRef(new Set<string>());
  useEffect(() => {
    for (const message of unreadFor(messages, sender)) {
      const id = message.id as string;
      if (marking.current.has(id)) continue;
      marking.current.add(id);
      client.updateResource(markedRead(message)).then(
        (read) => active.current && setMessages((shown) => mergeMessages(shown, [read])),
        // Not being able to mark it read (policy, a newer version) leaves it unread; nothing else.
        () => undefined,
      );
    }
  }, [client, messages, sender]);

  const send = useCallback<Conversation['send']>(
    async ({ text, attachment, recipient }) => {
      if (!patientId || !sender) throw new Error('Error: Provider profile not found');
      const created = await client.createResource(
        newChatMessage({
          text,
          attachment,
          sender,
          patient: { reference: `Patient/${patientId}` },
          recipient: recipient ?? { reference: `Patient/${patientId}` },
        }),
      );
      setMessages((shown) => mergeMessages(shown, [created]));
      return created;
    },
    [client, patientId, sender],
  );

  return { messages, loading, error, polled, send };
}
