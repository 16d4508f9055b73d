import { useCallback, useEffect, useRef, useState } from 'react';
import type { Attachment, Media, Reference } from '@medplum/fhirtypes';
import { normalizeErrorString } from '../../../data-provider/outcomes';
import { useShellClient } from '../../../src/shell';
import { UPLOAD_NOTICE_CLOSE_MS, uploadPercent, type UploadState } from './uploadState';

export interface MediaUploadRequest {
  file: File;
  subject: Reference;
  operator?: Reference;
}

export interface MediaUpload {
  state: UploadState;
  /** Uploads the file as a Media (preparation, then completed); undefined when it failed. */
  upload(request: MediaUploadRequest): Promise<{ media: Media; attachment: Attachment } | undefined>;
  dismiss(): void;
}

/**
 * Uploads a file the way app-spec §4 says: a Media created as `preparation`, the bytes stored as
 * a Binary whose access follows that Media (with progress), then the Media updated to
 * `completed` with the attachment. The state drives the upload notice.
 */
export function useMediaUpload(): MediaUpload {
  const client = useShellClient();
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const closeLater = useCallback(() => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setState({ phase: 'idle' }), UPLOAD_NOTICE_CLOSE_MS);
  }, []);

  const upload = useCallback<MediaUpload['upload']>(
    async ({ file, subject, operator }) => {
      clearTimeout(closeTimer.current);
      const filename = file.name;
      const contentType = file.type || 'application/octet-stream';
      setState({ phase: 'initializing', filename });
      try {
        const media = await client.createResource<Media>({
          resourceType: 'Media',
          status: 'preparation',
          subject: subject as Media['subject'],
          ...(operator ? { operator: operator as Media['operator'] } : {}),
          issued: new Date().toISOString(),
          content: { contentType, title: filename },
        });
        const binary = await client.createBinary({
          data: file,
          contentType,
          filename,
          securityContext: { reference: `Media/${media.id}` },
          onProgress: ({ loaded, total }) =>
            setState({ phase: 'uploading', filename, percent: uploadPercent(loaded, total) }),
        });
        // Binary/{id}, not the signed address the upload answers: that one expires; reads sign afresh.
        const attachment: Attachment = {
          contentType,
          url: `Binary/${binary.id}`,
          title: filename,
          size: file.size,
          creation: new Date().toISOString(),
        };
        const completed = await client.updateResource<Media>({ ...media, status: 'completed', content: attachment });
        setState({ phase: 'complete', filename });
        closeLater();
        return { media: completed, attachment };
      } catch (cause) {
        setState({ phase: 'error', filename, message: normalizeErrorString(cause) });
        closeLater();
        return undefined;
      }
    },
    [client, closeLater],
  );

  const dismiss = useCallback(() => {
    clearTimeout(closeTimer.current);
    setState({ phase: 'idle' });
  }, []);

  return { state, upload, dismiss };
}
