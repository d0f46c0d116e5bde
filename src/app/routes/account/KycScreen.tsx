import { useEffect, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { User } from '../../../shared/api/types';
import { checkChineseName, checkIdCard } from '../../../shared/validation';
import { toApiError } from '../../api/client';
import { useStationMutation } from '../../api/station-query';
import { uploadKycImage } from '../../api/upload';
import { isAbortError } from '../../api/errors';
import { FormField } from '../../components/FormField';
import { FormSubmit } from '../../components/FormSubmit';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { setSessionUser } from '../../state/session';
import { useFreshUser } from '../../components/record-parts';
import { checkPickedImage, compressImage, MAX_UPLOAD_BYTES } from './compress-image';
import { validationMessage } from '../../forms/form-errors';
import { useForm } from '../../forms/use-form';
import '../../components/wallet.css';
import { useLoggedIn } from '../../state/use-logged-in';

type TextField = 'realName' | 'idNumber';
type KycField = TextField | 'frontImage' | 'backImage';
const FIELDS: readonly KycField[] = ['realName', 'idNumber', 'frontImage', 'backImage'];

/** /authentication, /authentications and /smrz: real-name verification, its status and resubmission. */
export function KycScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return <KycStatusOrForm />;
}

function KycStatusOrForm() {
  const { LL } = useI18nContext();
  const { user, loading, error, reload } = useFreshUser();
  if (!user)
    return loading ? <Loading /> : error ? <ErrorState error={error} onRetry={reload} /> : <Loading />;
  if (user.kycStatus === 'pending' || user.kycStatus === 'passed') {
    return (
      <div className="wallet-screen" data-testid="kyc-status" data-status={user.kycStatus}>
        <section className="summary-card center">
          <p className={`kyc-badge kyc-${user.kycStatus}`}>{LL.user.kyc[user.kycStatus]()}</p>
          {user.realName && (
            // spec: a real name is the Chinese one on the ID card, marked so in every language.
            <p className="big" lang="zh-CN">
              {user.realName}
            </p>
          )}
          <p className="muted small">
            {user.kycStatus === 'pending' ? LL.identity.pendingText() : LL.identity.passedText()}
          </p>
        </section>
        {user.kycStatus === 'pending' ? (
          <button type="button" className="button secondary block" data-testid="kyc-refresh" onClick={reload}>
            {LL.identity.refreshStatus()}
          </button>
        ) : (
          <Link to="/bankCard" className="button primary block" data-testid="kyc-to-bank">
            {LL.titles.bankCard()}
          </Link>
        )}
      </div>
    );
  }
  return <KycForm user={user} />;
}

interface PhotoState {
  id: number | null;
  preview: string | null;
  progress: number | null;
}

function KycForm({ user }: { user: User }) {
  const { LL } = useI18nContext();
  const [front, setFront] = useState<PhotoState>({ id: null, preview: null, progress: null });
  const [back, setBack] = useState<PhotoState>({ id: null, preview: null, progress: null });
  const submit = useStationMutation('POST /user/auth.do', {
    onSuccess: (updated) => {
      setSessionUser(updated);
      showAlert(LL.identity.submitted(), 'success');
    },
  });
  const uploading = front.progress !== null || back.progress !== null;
  const photoMessage = (photo: PhotoState) =>
    photo.id === null ? (uploading ? LL.identity.waitUpload() : LL.identity.photoRequired()) : null;
  const form = useForm<TextField, KycField>({
    initial: { realName: '', idNumber: '' },
    validate: (values) => ({
      realName: validationMessage(LL, checkChineseName(values.realName)),
      idNumber: validationMessage(LL, checkIdCard(values.idNumber)),
      frontImage: photoMessage(front),
      backImage: photoMessage(back),
    }),
    stationFields: FIELDS,
    sending: submit.isPending,
  });
  const { values, errors, change } = form;

  const onSubmit = form.handleSubmit((values) => {
    if (front.id === null || back.id === null) return;
    submit.mutate(
      {
        realName: values.realName.trim(),
        idNumber: values.idNumber.trim().toUpperCase(),
        frontImage: front.id,
        backImage: back.id,
      },
      { onError: form.showRefusal },
    );
  });

  return (
    <form className="wallet-screen wallet-form" onSubmit={onSubmit} noValidate>
      {user.kycStatus === 'failed' && (
        <section className="summary-card failed" data-testid="kyc-failed">
          <strong>{LL.identity.failedTitle()}</strong>
          {user.kycFailReason && <p data-testid="kyc-fail-reason">{user.kycFailReason}</p>}
          <p className="muted small">{LL.identity.resubmitHint()}</p>
        </section>
      )}
      <FormField
        label={LL.identity.realName()}
        name="realName"
        autoComplete="name"
        maxLength={20}
        placeholder={LL.identity.realNamePlaceholder()}
        value={values.realName}
        error={errors.realName}
        onChange={change('realName')}
      />
      <FormField
        label={LL.identity.idNumber()}
        name="idNumber"
        autoComplete="off"
        maxLength={18}
        placeholder={LL.identity.idNumberPlaceholder()}
        value={values.idNumber}
        error={errors.idNumber}
        onChange={change('idNumber')}
      />
      <PhotoPicker
        side="front"
        label={LL.identity.frontPhoto()}
        state={front}
        onChange={(next) => {
          setFront(next);
          form.setError('frontImage', undefined);
        }}
        onError={(message) => form.setError('frontImage', message)}
        error={errors.frontImage}
      />
      <PhotoPicker
        side="back"
        label={LL.identity.backPhoto()}
        state={back}
        onChange={(next) => {
          setBack(next);
          form.setError('backImage', undefined);
        }}
        onError={(message) => form.setError('backImage', message)}
        error={errors.backImage}
      />
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.identity.submit()}
        testId="kyc-submit"
      />
    </form>
  );
}

/**
 * One ID photo: taken with the camera or picked from the phone, compressed to a JPEG here, then uploaded
 * with a progress bar. The upload's id is what /user/auth.do takes.
 */
function PhotoPicker({
  side,
  label,
  state,
  onChange,
  onError,
  error,
}: {
  side: 'front' | 'back';
  label: string;
  state: PhotoState;
  onChange: (next: PhotoState) => void;
  onError: (message: string) => void;
  error: string | undefined;
}) {
  const { LL } = useI18nContext();
  const controllerRef = useRef<AbortController | null>(null);
  useEffect(() => () => controllerRef.current?.abort(), []);
  useEffect(() => {
    const preview = state.preview;
    return () => {
      if (preview) URL.revokeObjectURL(preview);
    };
  }, [state.preview]);

  const onPick = async (file: File | undefined) => {
    if (!file) return;
    const problem = checkPickedImage(file);
    if (problem) {
      onError(LL.validation[problem]());
      return;
    }
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    let compressed: Blob;
    try {
      compressed = await compressImage(file);
    } catch {
      onError(LL.validation.imageType());
      return;
    }
    if (compressed.size > MAX_UPLOAD_BYTES) {
      onError(LL.validation.imageTooLarge());
      return;
    }
    const preview = URL.createObjectURL(compressed);
    onChange({ id: null, preview, progress: 0 });
    try {
      const uploaded = await uploadKycImage(compressed, {
        signal: controller.signal,
        onProgress: (fraction) => onChange({ id: null, preview, progress: fraction }),
      });
      onChange({ id: uploaded.id, preview, progress: null });
    } catch (failure) {
      if (isAbortError(failure)) return;
      const apiError = toApiError(failure);
      onChange({ id: null, preview, progress: null });
      onError(apiError.fields?.file ?? apiError.message);
    }
  };

  const input = (camera: boolean) => (
    <label className="button secondary small file-button">
      {camera ? LL.identity.takePhoto() : LL.identity.pickPhoto()}
      <input
        type="file"
        accept="image/*"
        className="visually-hidden"
        data-testid={`photo-${side}${camera ? '-camera' : ''}`}
        {...(camera ? { capture: 'environment' as const } : {})}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          void onPick(file);
        }}
      />
    </label>
  );

  return (
    <div
      className={error ? 'field photo-field has-error' : 'field photo-field'}
      data-testid={`photo-field-${side}`}
    >
      <span className="photo-label">{label}</span>
      <div className="photo-box">
        {state.preview ? (
          <img src={state.preview} alt={label} />
        ) : (
          <span className="muted small">{LL.identity.photoHint()}</span>
        )}
      </div>
      {state.progress !== null && (
        <progress
          className="upload-progress"
          max={1}
          value={state.progress}
          data-testid={`progress-${side}`}
          aria-label={LL.identity.uploading()}
        />
      )}
      {state.id !== null && (
        <p className="field-hint" data-testid={`uploaded-${side}`}>
          {LL.identity.uploaded()}
        </p>
      )}
      <div className="button-row">
        {input(true)}
        {input(false)}
      </div>
      {error && (
        <p className="field-error" data-testid={`error-${side}Image`}>
          {error}
        </p>
      )}
    </div>
  );
}
