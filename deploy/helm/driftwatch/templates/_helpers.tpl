{{- define "driftwatch.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "driftwatch.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "driftwatch.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "driftwatch.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels of one component: pass (dict "root" $ "component" "web"). */}}
{{- define "driftwatch.selectorLabels" -}}
app.kubernetes.io/name: {{ include "driftwatch.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "driftwatch.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "driftwatch.secretName" -}}
{{- default (include "driftwatch.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{- define "driftwatch.agentSecretName" -}}
{{- default (printf "%s-agent" (include "driftwatch.fullname" .)) .Values.agent.existingSecret }}
{{- end }}

{{- define "driftwatch.agentServiceAccountName" -}}
{{- if .Values.agent.serviceAccount.create }}
{{- default (printf "%s-agent" (include "driftwatch.fullname" .)) .Values.agent.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.agent.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "driftwatch.embedded" -}}
{{- if eq .Values.database.type "embedded" }}true{{ end }}
{{- end }}

{{/* The public address: baseUrl, else the first Ingress host. */}}
{{- define "driftwatch.baseUrl" -}}
{{- if .Values.baseUrl }}
{{- .Values.baseUrl }}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts }}
{{- $host := (first .Values.ingress.hosts).host }}
{{- $tls := false }}
{{- range .Values.ingress.tls }}{{ if has $host .hosts }}{{ $tls = true }}{{ end }}{{ end }}
{{- printf "%s://%s" (ternary "https" "http" $tls) $host }}
{{- end }}
{{- end }}

{{/* Environment variables whose values are secret, as they appear in the chart's Secret. */}}
{{- define "driftwatch.secretKeys" -}}
AUTH_SECRET: authSecret
DRIFTWATCH_GITHUB_TOKEN: githubToken
DRIFTWATCH_GITLAB_TOKEN: gitlabToken
DRIFTWATCH_SMTP_URL: smtpUrl
DRIFTWATCH_OIDC_CLIENT_SECRET: oidcClientSecret
DRIFTWATCH_DOCKERHUB_USERNAME: dockerHubUsername
DRIFTWATCH_DOCKERHUB_TOKEN: dockerHubToken
{{- end }}

{{/*
Refusals, checked before anything renders. Each says what to change.
*/}}
{{- define "driftwatch.validate" -}}
{{- $embedded := eq .Values.database.type "embedded" }}
{{- if and .Values.web.enabled $embedded (gt (int .Values.web.replicas) 1) }}
{{- fail (printf "web.replicas=%d needs database.type=external: the embedded database lives on one volume that only one web replica may open. Set web.replicas=1, or database.type=external with database.external.existingSecret." (int .Values.web.replicas)) }}
{{- end }}
{{- if and $embedded .Values.worker.enabled }}
{{- fail "worker.enabled=true needs database.type=external: a separate worker cannot reach the embedded database, which runs inside the web pod (there the web server runs the scheduler itself)." }}
{{- end }}
{{- if and .Values.worker.enabled (not .Values.web.enabled) }}
{{- fail "worker.enabled=true needs web.enabled=true: the worker belongs to a Driftwatch server of this release." }}
{{- end }}
{{- if and .Values.web.enabled (eq .Values.database.type "external") (not .Values.database.external.existingSecret) }}
{{- fail "database.type=external needs database.external.existingSecret: the name of a Secret whose DATABASE_URL key holds postgresql://user:password@host:5432/driftwatch." }}
{{- end }}
{{- if hasKey .Values.config "DRIFTWATCH_DOCKERHUB_USERNAME" }}
{{- fail "config.DRIFTWATCH_DOCKERHUB_USERNAME: set the Docker Hub sign-in as secrets.dockerHubUsername and secrets.dockerHubToken (or both keys in secrets.existingSecret): the server refuses a user name without its token." }}
{{- end }}
{{- range $key, $_ := .Values.config }}
{{- if regexMatch "(SECRET|TOKEN|PASSWORD|DATABASE_URL|SMTP_URL|AGENT_KEY)" $key }}
{{- fail (printf "config.%s is secret: set it under secrets (or in secrets.existingSecret), never as a plain value." $key) }}
{{- end }}
{{- end }}
{{- if .Values.agent.enabled }}
{{- if not .Values.agent.environment }}
{{- fail "agent.enabled=true needs agent.environment: the environment this cluster reports for (for example production)." }}
{{- end }}
{{- if and (not .Values.agent.url) (not .Values.web.enabled) }}
{{- fail "agent.enabled=true with web.enabled=false needs agent.url: the address of the Driftwatch server the agent reports to." }}
{{- end }}
{{- if and (not .Values.agent.existingSecret) (not .Values.agent.key) }}
{{- fail "agent.enabled=true needs an agent key: agent.existingSecret (a Secret with the key DRIFTWATCH_AGENT_KEY) or agent.key. Create one with: driftwatch agent create --workspace W --name N" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Environment shared by the web server and the worker. */}}
{{- define "driftwatch.serverEnv" -}}
- name: DRIFTWATCH_DATA_DIR
  value: /data
{{- with include "driftwatch.baseUrl" . }}
- name: DRIFTWATCH_BASE_URL
  value: {{ . | quote }}
{{- end }}
{{- if not .Values.eol }}
- name: DRIFTWATCH_EOL
  value: "false"
{{- end }}
{{- range $key, $value := .Values.config }}
- name: {{ $key }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- if eq .Values.database.type "external" }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.database.external.existingSecret }}
      key: {{ .Values.database.external.secretKey }}
{{- end }}
{{- $secret := include "driftwatch.secretName" . }}
{{- range $key, $_ := include "driftwatch.secretKeys" . | fromYaml }}
- name: {{ $key }}
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $key }}
      optional: true
{{- end }}
{{- end }}

{{- define "driftwatch.podSecurity" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- end }}
